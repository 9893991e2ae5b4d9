#include "storage/catalog.h"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <string_view>

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

// The catalog's words and numbers, read in place: a database opens with a
// catalog of some 10,000 characteristic sets, which an istream took
// milliseconds to read. Numbers are decimal digits only (from_chars: no
// sign, no spaces inside), as writeCatalog writes them.
class CatalogText {
 public:
  CatalogText(std::string_view text, const std::filesystem::path& path) : rest_(text), path_(path) {}

  bool atEnd() {
    skipSpace();
    return rest_.empty();
  }
  std::string_view word() {
    skipSpace();
    const size_t length = std::min(rest_.find_first_of(" \n"), rest_.size());
    std::string_view w = rest_.substr(0, length);
    rest_.remove_prefix(length);
    return w;
  }
  template <typename T>
  T number(std::string_view what) {
    skipSpace();
    T value{};
    const auto [end, error] = std::from_chars(rest_.data(), rest_.data() + rest_.size(), value);
    if (error != std::errc() || (end != rest_.data() + rest_.size() && *end != ' ' && *end != '\n')) {
      corrupt(path_, "bad " + std::string(what));
    }
    rest_.remove_prefix(static_cast<size_t>(end - rest_.data()));
    return value;
  }
  // `name` and then its number.
  template <typename T>
  void field(std::string_view name, T& value) {
    if (word() != name) corrupt(path_, "expected " + std::string(name));
    value = number<T>(name);
  }

 private:
  void skipSpace() {
    while (!rest_.empty() && (rest_.front() == ' ' || rest_.front() == '\n')) rest_.remove_prefix(1);
  }

  std::string_view rest_;
  const std::filesystem::path& path_;
};

// Optional: catalogs written before they were kept end after the predicates.
void readCharacteristicSets(CatalogText& in, Catalog& c, const std::filesystem::path& path) {
  if (in.atEnd()) return;
  size_t count = 0;
  in.field("characteristic_sets", count);
  c.characteristicSets.reserve(std::min<size_t>(count, 1 << 20));
  for (size_t i = 0; i < count; ++i) {
    CharacteristicSet set;
    in.field("set", set.subjects);
    const auto predicates = in.number<size_t>("set line");
    set.predicates.reserve(std::min(predicates, c.predicates.size()));
    for (size_t k = 0; k < predicates; ++k) {
      std::pair<uint32_t, uint64_t> entry;
      entry.first = in.number<uint32_t>("set line");
      entry.second = in.number<uint64_t>("set line");
      if (entry.first >= c.predicates.size()) corrupt(path, "bad set line");
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
  CatalogText in(body.substr(kHeader.size()), path);
  Catalog c;
  size_t predicateCount = 0;
  in.field("generation", c.generation);
  in.field("input_files", c.inputFiles);
  in.field("vertices", c.vertexCount);
  in.field("triples", c.tripleCount);
  in.field("predicates", predicateCount);
  // A line per predicate: a count beyond the text is damage, not a reason to allocate.
  if (predicateCount > body.size()) corrupt(path, "bad predicates");
  c.predicates.resize(predicateCount);
  for (auto& p : c.predicates) {
    in.field("predicate", p.triples);
    p.distinctSubjects = in.number<decltype(p.distinctSubjects)>("predicate line");
    p.distinctObjects = in.number<decltype(p.distinctObjects)>("predicate line");
    p.maxOutDegree = in.number<decltype(p.maxOutDegree)>("predicate line");
    p.maxInDegree = in.number<decltype(p.maxInDegree)>("predicate line");
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
