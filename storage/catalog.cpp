#include "storage/catalog.h"

#include <sstream>

#include "storage/checksum.h"
#include "storage/file_io.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

constexpr std::string_view kHeader = "gsparql-catalog 1\n";

std::string checksumLine(std::string_view body) {
  return "checksum " + std::to_string(crc32Update(0, body.data(), body.size())) + "\n";
}

[[noreturn]] void corrupt(const std::filesystem::path& path, const std::string& what) {
  throw StorageError("corrupt catalog " + path.string() + ": " + what);
}

template <typename T>
void expectField(std::istream& in, std::string_view name, T& value,
                 const std::filesystem::path& path) {
  std::string word;
  if (!(in >> word) || word != name || !(in >> value)) corrupt(path, "expected " + std::string(name));
}

// Optional: catalogs written before they were kept end after the predicates.
void readCharacteristicSets(std::istream& in, Catalog& c, const std::filesystem::path& path) {
  std::string word;
  if (!(in >> word)) return;
  size_t count = 0;
  if (word != "characteristic_sets" || !(in >> count)) corrupt(path, "expected characteristic_sets");
  for (size_t i = 0; i < count; ++i) {
    CharacteristicSet set;
    size_t predicates = 0;
    if (!(in >> word) || word != "set" || !(in >> set.subjects >> predicates)) corrupt(path, "bad set line");
    for (size_t k = 0; k < predicates; ++k) {
      std::pair<uint32_t, uint64_t> entry;
      if (!(in >> entry.first >> entry.second) || entry.first >= c.predicates.size()) corrupt(path, "bad set line");
      set.predicates.push_back(entry);
    }
    c.characteristicSets.push_back(std::move(set));
  }
}

}  // namespace

void writeCatalog(const std::filesystem::path& path, const Catalog& catalog) {
  std::ostringstream out;
  out << kHeader << "generation " << catalog.generation << "\ninput_files " << catalog.inputFiles
      << "\nvertices " << catalog.vertexCount << "\ntriples " << catalog.tripleCount
      << "\npredicates " << catalog.predicates.size() << "\n";
  for (const auto& p : catalog.predicates) {
    out << "predicate " << p.triples << ' ' << p.distinctSubjects << ' ' << p.distinctObjects << ' '
        << p.maxOutDegree << ' ' << p.maxInDegree << "\n";
  }
  out << "characteristic_sets " << catalog.characteristicSets.size() << "\n";
  for (const auto& set : catalog.characteristicSets) {
    out << "set " << set.subjects << ' ' << set.predicates.size();
    for (const auto& [predicate, triples] : set.predicates) out << ' ' << predicate << ' ' << triples;
    out << "\n";
  }
  std::string body = out.str();
  writeFileDurably(path, body + checksumLine(body));
}

Catalog readCatalog(const std::filesystem::path& path) {
  std::string text = readWholeFile(path);
  if (!text.starts_with(kHeader)) corrupt(path, "unknown header");
  size_t last = text.rfind("checksum ");
  if (last == std::string::npos) corrupt(path, "no checksum");
  std::string_view body(text.data(), last);
  if (text.substr(last) != checksumLine(body)) corrupt(path, "checksum mismatch");
  std::istringstream in{std::string(body.substr(kHeader.size()))};
  Catalog c;
  size_t predicateCount = 0;
  expectField(in, "generation", c.generation, path);
  expectField(in, "input_files", c.inputFiles, path);
  expectField(in, "vertices", c.vertexCount, path);
  expectField(in, "triples", c.tripleCount, path);
  expectField(in, "predicates", predicateCount, path);
  c.predicates.resize(predicateCount);
  for (auto& p : c.predicates) {
    expectField(in, "predicate", p.triples, path);
    if (!(in >> p.distinctSubjects >> p.distinctObjects >> p.maxOutDegree >> p.maxInDegree)) {
      corrupt(path, "bad predicate line");
    }
  }
  readCharacteristicSets(in, c, path);
  indexCharacteristicSets(c);
  return c;
}

void indexCharacteristicSets(Catalog& catalog) {
  catalog.setsWithPredicate.assign(catalog.predicates.size(), {});
  catalog.subjectsInSets = 0;
  for (uint32_t i = 0; i < catalog.characteristicSets.size(); ++i) {
    catalog.subjectsInSets += catalog.characteristicSets[i].subjects;
    for (const auto& [predicate, triples] : catalog.characteristicSets[i].predicates) {
      if (predicate < catalog.setsWithPredicate.size()) catalog.setsWithPredicate[predicate].push_back({i, triples});
    }
  }
}

}  // namespace gsparql
