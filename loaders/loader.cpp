#include "loaders/loader.h"

#include <tbb/parallel_invoke.h>
#include <tbb/parallel_sort.h>

#include <chrono>
#include <unordered_map>

#include "gsparql/error.h"
#include "loaders/rdf_reader.h"
#include "loaders/term_table.h"
#include "loaders/triple_sorter.h"
#include "rdf/term.h"
#include "storage/adjacency_writer.h"
#include "storage/crash_point.h"
#include "storage/graph_store.h"
#include "storage/value_column.h"

namespace gsparql {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

RdfFormat formatOf(const std::string& input, const LoadOptions& options) {
  if (options.format) return *options.format;
  if (input == "-") return RdfFormat::NTriples;
  if (auto format = rdfFormatFromName(input)) return *format;
  throw LoadError(input + ": unknown RDF format (use .nt, .ttl or .nq, optionally compressed, or --format)");
}

// Interns terms by key (rdf::termKey) and remembers the spelling first seen
// where it differs from the key (language tags with capitals).
class TermEncoder {
 public:
  uint32_t intern(std::string_view term) {
    if (!rdf::keyDiffersFromTerm(term)) return table_.intern(term);
    const uint32_t before = table_.size();
    const uint32_t id = table_.intern(rdf::termKey(term));
    if (id == before) spellings_.emplace(id, term);
    return id;
  }
  uint32_t size() const { return table_.size(); }
  NumberedTerms numbered() const {
    return {table_.size(), [this](uint32_t id) { return table_.term(id); },
            [this](uint32_t id) {
              auto it = spellings_.find(id);
              return it == spellings_.end() ? table_.term(id) : std::string_view(it->second);
            }};
  }

 private:
  TermTable table_;
  std::unordered_map<uint32_t, std::string> spellings_;
};

// Encodes statements into id triples and remembers every term it has seen.
class GraphEncoder {
 public:
  GraphEncoder(const std::filesystem::path& scratch, uint64_t sortBufferBytes)
      : sorter_(scratch, sortBufferBytes) {}

  void add(const RdfStatementView& st) {
    sorter_.add(Triple{predicates_.intern(st.predicate), vertices_.intern(st.subject),
                       vertices_.intern(st.object)});
  }

  // The previous generation's terms keep their ids: they are interned first, in id order.
  void addExisting(const GraphStore& store) {
    store.dictionary().forEach(TermSpace::Vertex, [&](uint32_t, std::string_view t) { vertices_.intern(t); });
    store.dictionary().forEach(TermSpace::Predicate, [&](uint32_t, std::string_view t) { predicates_.intern(t); });
    const AdjacencyFile& out = store.adjacency(pcsr::Direction::Out);
    for (uint32_t p = 0; p < out.predicateCount(); ++p) {
      const PredicateAdjacency& adjacency = out.predicate(p);
      for (size_t k = 0; k < adjacency.keys().size(); ++k) {
        for (uint32_t o : adjacency.neighboursAt(k)) sorter_.add(Triple{p, adjacency.keys()[k], o});
      }
    }
  }

  const TermEncoder& vertices() const { return vertices_; }
  const TermEncoder& predicates() const { return predicates_; }
  TripleSorter& sorter() { return sorter_; }

 private:
  TermEncoder vertices_;
  TermEncoder predicates_;
  TripleSorter sorter_;
};

std::vector<Edge> reversed(std::span<const Edge> edges) {
  std::vector<Edge> in(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) in[i] = Edge{edges[i].neighbour, edges[i].key};
  tbb::parallel_sort(in.begin(), in.end());
  return in;
}

PredicateStatistics statisticsOf(const pcsr::PredicateSection& out, const pcsr::PredicateSection& in) {
  return {out.edgeCount, out.keyCount, in.keyCount, out.maxDegree, in.maxDegree};
}

// Writes both adjacency files and fills the per-predicate statistics.
uint64_t writeAdjacency(const std::filesystem::path& dir, TripleSorter& sorter, Catalog& catalog) {
  AdjacencyWriter out(dir / kOutAdjacencyFile, pcsr::Direction::Out);
  AdjacencyWriter in(dir / kInAdjacencyFile, pcsr::Direction::In);
  const auto predicateCount = static_cast<uint32_t>(catalog.predicates.size());
  uint64_t unique = sorter.forEachPredicate([&](uint32_t p, std::span<const Edge> edges) {
    tbb::parallel_invoke([&] { out.addPredicate(p, edges); },
                         [&] { in.addPredicate(p, reversed(edges)); });
  });
  out.finish(predicateCount);
  in.finish(predicateCount);
  AdjacencyFile outView(dir / kOutAdjacencyFile);
  AdjacencyFile inView(dir / kInAdjacencyFile);
  for (uint32_t p = 0; p < predicateCount; ++p) {
    catalog.predicates[p] = statisticsOf(outView.predicate(p).section(), inView.predicate(p).section());
  }
  return unique;
}

class ProgressReporter {
 public:
  ProgressReporter(const LoadOptions& options, Clock::time_point start)
      : options_(options), start_(start) {}
  void maybeReport(const std::string& input, const InputStream& stream, uint64_t triples) {
    if (!options_.onProgress || (triples & 0xFFFF) != 0) return;
    auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    options_.onProgress(LoadProgress{input, stream.sourceBytesRead(), stream.sourceBytesTotal(),
                                     triples, secondsSince(start_)});
  }

 private:
  const LoadOptions& options_;
  Clock::time_point start_;
  Clock::time_point last_{};
};

void requireDirectoryOrNothing(const std::filesystem::path& root) {
  std::error_code error;
  const auto status = std::filesystem::status(root, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_directory(status)) {
    throw StorageError(root.string() + ": not a database directory (a file of that name exists)");
  }
}

LoadSummary load(const std::filesystem::path& root, const std::vector<std::string>& inputs,
                 const LoadOptions& options) {
  const auto start = Clock::now();
  GenerationWriter writer(root);
  const std::filesystem::path dir = writer.next().dir;
  GraphEncoder encoder(dir / "sort", options.sortBufferBytes);
  Catalog catalog;
  catalog.generation = writer.next().number;
  if (writer.previous()) {
    GraphStore previous(root);
    encoder.addExisting(previous);
    catalog.inputFiles = previous.catalog().inputFiles;
  }

  LoadSummary summary;
  ProgressReporter progress(options, start);
  for (const std::string& input : inputs) {
    RdfReadOptions readOptions{options.lenient, "f" + std::to_string(++catalog.inputFiles) + "_", {},
                               options.onWarning};
    auto stream = openInput(input);
    RdfReadReport report = readRdf(*stream, input, formatOf(input, options), [&](const RdfStatementView& st) {
      encoder.add(st);
      progress.maybeReport(input, *stream, ++summary.triplesRead);
    }, readOptions);
    summary.skippedStatements += report.skipped;
    for (auto& e : report.firstErrors) {
      if (summary.firstErrors.size() < 5) summary.firstErrors.push_back(std::move(e));
    }
  }
  crashPoint("after-parse");
  summary.parseSeconds = secondsSince(start);

  catalog.vertexCount = encoder.vertices().size();
  catalog.predicates.resize(encoder.predicates().size());
  // The vertex terms hold the previous generation's too (addExisting), so
  // the value column is complete after an incremental load.
  const NumberedTerms vertexTerms = encoder.vertices().numbered();
  tbb::parallel_invoke(
      [&] { writeDictionary(dir / kDictionaryDir, vertexTerms, encoder.predicates().numbered()); },
      [&] { writeValueColumn(dir / kValuesFile, vertexTerms.count, vertexTerms.term); },
      [&] { writeTermColumn(dir / kTermsFile, vertexTerms); },
      [&] { catalog.tripleCount = writeAdjacency(dir, encoder.sorter(), catalog); });
  std::filesystem::remove_all(dir / "sort");
  summary.buildSeconds = secondsSince(start) - summary.parseSeconds;
  crashPoint("after-build");
  writeCatalog(dir / kCatalogFile, catalog);
  writer.commit();

  summary.uniqueTriples = catalog.tripleCount;
  summary.terms = catalog.vertexCount;
  summary.predicates = catalog.predicates.size();
  summary.seconds = secondsSince(start);
  return summary;
}

}  // namespace

LoadSummary loadIntoDatabase(const std::filesystem::path& root, const std::vector<std::string>& inputs,
                             const LoadOptions& options) {
  requireDirectoryOrNothing(root);
  try {
    return load(root, inputs, options);
  } catch (const std::filesystem::filesystem_error& e) {
    // Permissions, a full disk: the message of the operating system says which.
    throw StorageError(e.path1().string() + ": " + e.code().message());
  }
}

}  // namespace gsparql
