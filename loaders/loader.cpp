#include "loaders/loader.h"

#include <sys/resource.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>
#include <optional>
#include <set>

#include "gsparql/error.h"
#include "loaders/batch_reader.h"
#include "loaders/pipeline_failure.h"
#include "loaders/rdf_reader.h"
#include "loaders/term_encoder.h"
#include "loaders/triple_sorter.h"
#include "loaders/vertex_term_shards.h"
#include "rdf/term.h"
#include "storage/adjacency_writer.h"
#include "storage/characteristic_sets.h"
#include "storage/crash_point.h"
#include "storage/graph_changes.h"
#include "storage/graph_store.h"
#include "storage/named_graphs.h"
#include "storage/value_column.h"

namespace gsparql {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// LoadOptions::graph as an N-Triples IRI.
std::string graphTerm(const std::string& graph) {
  if (graph.empty()) return graph;
  std::string_view iri = graph;
  if (iri.size() >= 2 && iri.front() == '<' && iri.back() == '>') iri = iri.substr(1, iri.size() - 2);
  const size_t colon = iri.find(':');
  const bool absolute = colon != std::string_view::npos && colon > 0 &&
                        std::isalpha(static_cast<unsigned char>(iri[0])) &&
                        iri.find_first_of(" \t\r\n<>\"{}|^`\\") == std::string_view::npos;
  if (!absolute) throw LoadError("the graph to load into must be an absolute IRI, not '" + graph + "'");
  return rdf::iriTerm(iri);
}

RdfFormat formatOf(const std::string& input, const LoadOptions& options) {
  if (options.format) return *options.format;
  if (input == "-") return RdfFormat::NTriples;
  if (auto format = rdfFormatOfFileName(input)) return *format;
  throw LoadError(input +
                  ": unknown RDF format (use .nt, .ttl, .nq, .trig, .rdf, .owl or .xml, "
                  "optionally compressed, or --format)");
}

// Encodes batches of statements into triples of provisional ids (see
// VertexTermShards) and remembers every term it has seen.
class GraphEncoder {
 public:
  GraphEncoder(const std::filesystem::path& scratch, uint64_t sortBufferBytes) : sorter_(scratch, sortBufferBytes) {}

  void add(const StatementBatch& batch) {
    const auto start = Clock::now();
    ids_.resize(batch.vertexTerms().size());
    vertices_.intern(batch, ids_);
    predicateIds_.clear();
    unionIds_.clear();
    for (const std::string& predicate : batch.predicates()) {
      predicateIds_.push_back(predicates_.intern(predicate));
      unionIds_.push_back(unionPredicate(predicate));
    }
    const auto predicateOf = batch.predicateOfTriple();
    for (size_t i = 0; i < batch.triples(); ++i) {
      const uint32_t p = predicateOf[i];
      sorter_.add(Triple{predicateIds_[p], ids_[2 * i], ids_[2 * i + 1]});
      if (unionIds_[p] != kNoUnion) sorter_.add(Triple{unionIds_[p], ids_[2 * i], ids_[2 * i + 1]});
    }
    encodeSeconds_ += secondsSince(start);
  }

  // The previous generation's terms are interned first and keep their ids;
  // its triples follow, but for those `keep` refuses.
  void addExisting(const GraphStore& store, const std::function<bool(const Triple&)>& keep) {
    store.dictionary().forEach(TermSpace::Predicate, [&](uint32_t, std::string_view t) { predicates_.intern(t); });
    // The union is made again from the triples kept (its ids after the previous ones, which must stay).
    const uint32_t previousPredicates = predicates_.size();
    std::vector<uint32_t> unionOf(previousPredicates);
    for (uint32_t p = 0; p < previousPredicates; ++p) unionOf[p] = unionPredicate(std::string(predicates_.term(p)));
    const NamedGraphs& graphs = store.graphs();
    std::vector<uint32_t> provisional;
    StatementBatch batch;
    auto internBatch = [&] {
      batch.prepare(kVertexShardBits);
      ids_.resize(batch.vertexTerms().size());
      vertices_.intern(batch, ids_);
      provisional.insert(provisional.end(), ids_.begin(), ids_.end());
      batch = StatementBatch();
    };
    store.dictionary().forEach(TermSpace::Vertex, [&](uint32_t, std::string_view t) {
      batch.addVertex(t);
      if (batch.vertexTermCount() == kExistingTermsABatch) internBatch();
    });
    internBatch();
    vertices_.keepIds(provisional);
    const AdjacencyFile& out = store.adjacency(pcsr::Direction::Out);
    for (uint32_t p = 0; p < out.predicateCount(); ++p) {
      const PredicateAdjacency& adjacency = out.predicate(p);
      for (size_t k = 0; k < adjacency.keys().size(); ++k) {
        const uint32_t subject = adjacency.keys()[k];
        for (uint32_t o : adjacency.neighboursAt(k)) {
          if (graphs.isUnion(graphs.graphOf(p)) || !keep(Triple{p, subject, o})) continue;
          sorter_.add(Triple{p, provisional[subject], provisional[o]});
          if (unionOf[p] != kNoUnion) sorter_.add(Triple{unionOf[p], provisional[subject], provisional[o]});
        }
      }
    }
  }

  // Triples given as terms (an update's insertions).
  void addTerms(const std::set<TermTriple>& triples) {
    StatementBatch batch;
    for (const TermTriple& t : triples) {
      const GraphPredicate predicate = splitGraphPredicateKey(t[1]);
      batch.add(RdfStatementView{t[0], predicate.predicate, t[2], predicate.graph});
    }
    batch.prepare(kVertexShardBits);
    add(batch);
  }

  const VertexTermShards& vertices() const { return vertices_; }
  const TermEncoder& predicates() const { return predicates_; }
  TripleSorter& sorter() { return sorter_; }
  double encodeSeconds() const { return encodeSeconds_; }

 private:
  static constexpr size_t kExistingTermsABatch = size_t{1} << 20;
  static constexpr uint32_t kNoUnion = 0xFFFFFFFFu;

  // The id of a named graph's predicate in the union of the named graphs
  // (storage/named_graphs.h); kNoUnion for the default graph's and the union's own.
  uint32_t unionPredicate(std::string_view key) {
    const GraphPredicate parts = splitGraphPredicateKey(key);
    if (parts.graph.empty() || parts.graph == kUnionGraphName) return kNoUnion;
    return predicates_.intern(graphPredicateKey(parts.predicate, kUnionGraphName));
  }

  VertexTermShards vertices_;
  TermEncoder predicates_;
  TripleSorter sorter_;
  std::vector<uint32_t> ids_;
  std::vector<uint32_t> predicateIds_;
  std::vector<uint32_t> unionIds_;  // of the batch's predicates
  double encodeSeconds_ = 0;
};

std::vector<Edge> reversed(std::span<const Edge> edges) {
  std::vector<Edge> in(edges.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, edges.size(), size_t{1} << 16), [&](const auto& range) {
    for (size_t i = range.begin(); i != range.end(); ++i) in[i] = Edge{edges[i].neighbour, edges[i].key};
  });
  tbb::parallel_sort(in.begin(), in.end());
  return in;
}

void renumber(std::span<Edge> edges, const FinalVertexIds& finalId) {
  tbb::parallel_for(tbb::blocked_range<size_t>(0, edges.size(), size_t{1} << 16),
                    [&](const tbb::blocked_range<size_t>& range) {
                      for (size_t i = range.begin(); i != range.end(); ++i) {
                        edges[i] = Edge{finalId(edges[i].key), finalId(edges[i].neighbour)};
                      }
                    });
}

// One predicate on its way through writeAdjacency's pipeline.
struct PredicateSections {
  uint32_t predicate = 0;
  std::vector<Edge> edges;
  AdjacencySection out, in;
};

// Builds both directions' sections of predicates on all cores and writes
// them in predicate order, filling the per-predicate statistics. Final ids
// that keep the order of provisional ones are given edge by edge as they are
// built; others are given to all triples, sorted again, first.
uint64_t writeAdjacency(const std::filesystem::path& dir, TripleSorter& sorter, const FinalVertexIds& finalId,
                        Catalog& catalog) {
  if (!finalId.keepsOrder()) sorter.renumberVertices(finalId);
  AdjacencyWriter out(dir / kOutAdjacencyFile, pcsr::Direction::Out);
  AdjacencyWriter in(dir / kInAdjacencyFile, pcsr::Direction::In);
  auto predicates = sorter.readPredicates();
  uint64_t unique = 0;
  PipelineFailure failure;
  using Item = std::shared_ptr<PredicateSections>;
  auto merge = [&](tbb::flow_control& control) -> Item {
    auto item = std::make_shared<PredicateSections>();
    bool more = false;
    failure.guard([&] { more = predicates.next(item->predicate, item->edges); });
    if (!more) {
      control.stop();
      return nullptr;
    }
    return item;
  };
  auto build = [&](Item item) {
    failure.guard([&] {
      if (finalId.keepsOrder()) renumber(item->edges, finalId);
      tbb::parallel_invoke([&] { item->out = AdjacencySection(item->edges); },
                           [&] { item->in = AdjacencySection(reversed(item->edges)); });
    });
    item->edges = std::vector<Edge>();
    return item;
  };
  auto write = [&](Item item) {
    failure.guard([&] {
      out.addPredicate(item->predicate, item->out);
      in.addPredicate(item->predicate, item->in);
      unique += item->out.edgeCount();
      catalog.predicates[item->predicate] = {item->out.edgeCount(), item->out.keyCount(), item->in.keyCount(),
                                             item->out.maxDegree(), item->in.maxDegree()};
    });
  };
  // Each predicate in flight holds its edges and sections: a few at a time.
  const auto inFlight = static_cast<size_t>(std::max(2, tbb::this_task_arena::max_concurrency() / 2));
  tbb::parallel_pipeline(inFlight, tbb::make_filter<void, Item>(tbb::filter_mode::serial_in_order, merge) &
                                       tbb::make_filter<Item, Item>(tbb::filter_mode::parallel, build) &
                                       tbb::make_filter<Item, void>(tbb::filter_mode::serial_in_order, write));
  failure.rethrowIfFailed();
  const auto predicateCount = static_cast<uint32_t>(catalog.predicates.size());
  out.finish(predicateCount);
  in.finish(predicateCount);
  return unique;
}

class ProgressReporter {
 public:
  ProgressReporter(const LoadOptions& options, Clock::time_point start) : options_(options), start_(start) {}
  void maybeReport(const std::string& input, uint64_t bytesRead, uint64_t bytesTotal, uint64_t triples) {
    if (!options_.onProgress) return;
    auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    options_.onProgress(LoadProgress{input, bytesRead, bytesTotal, triples, secondsSince(start_)});
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

// The triples' share of the memory budget: what the pieces of input in
// flight leave, and at least half.
uint64_t sortBufferBytes(const LoadOptions& options) {
  // About 12 MiB each: the text, its copy in the batch, and the batch's
  // indexes.
  const uint64_t pieces = (uint64_t{12} << 20) * 2 * static_cast<uint64_t>(tbb::this_task_arena::max_concurrency());
  const uint64_t budget = options.memoryBudgetBytes;
  return budget > 2 * pieces ? budget - pieces : budget / 2;
}

uint64_t peakMemoryBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

void readInputs(const std::vector<GraphChanges::LoadedFile>& inputs, const LoadOptions& options, GraphEncoder& encoder,
                Catalog& catalog, LoadSummary& summary, Clock::time_point start) {
  ProgressReporter progress(options, start);
  for (const GraphChanges::LoadedFile& file : inputs) {
    const std::string& input = file.path;
    RdfReadOptions readOptions;
    readOptions.lenient = options.lenient;
    readOptions.blankNodePrefix = "f" + std::to_string(++catalog.inputFiles) + "_";
    readOptions.defaultGraph = file.graph;
    readOptions.jsonLdContexts = options.jsonLdContexts;
    auto stream = openInput(input);
    const uint64_t bytesTotal = stream->sourceBytesTotal();
    RdfReadReport report = readInBatches(*stream, input, formatOf(input, options), readOptions,
                                         [&](StatementBatch& batch, uint64_t bytesRead) {
                                           encoder.add(batch);
                                           summary.triplesRead += batch.triples();
                                           progress.maybeReport(input, bytesRead, bytesTotal, summary.triplesRead);
                                         });
    summary.skippedStatements += report.skipped;
    for (auto& e : report.firstErrors) {
      if (summary.firstErrors.size() < 5) summary.firstErrors.push_back(std::move(e));
    }
  }
}

template <typename Write>
double timed(Write write) {
  const auto start = Clock::now();
  write();
  return secondsSince(start);
}

// The previous generation's triples that `changes` deletes, as its ids:
// a triple with a term the dictionary lacks is not stored and needs no id.
std::vector<Triple> deletedTriples(const GraphStore& previous, const GraphChanges& changes) {
  std::vector<Triple> ids;
  const Dictionary& dictionary = previous.dictionary();
  for (const TermTriple& t : changes.deleted()) {
    auto p = dictionary.id(TermSpace::Predicate, t[1]);
    auto s = dictionary.id(TermSpace::Vertex, t[0]);
    auto o = dictionary.id(TermSpace::Vertex, t[2]);
    if (p && s && o) ids.push_back(Triple{*p, *s, *o});
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void addPrevious(const GraphStore& previous, const GraphChanges& changes, GraphEncoder& encoder) {
  const std::vector<Triple> deleted = deletedTriples(previous, changes);
  const NamedGraphs& graphs = previous.graphs();
  std::vector<bool> cleared(previous.catalog().predicates.size());
  for (uint32_t p = 0; p < cleared.size(); ++p) cleared[p] = changes.clearsExisting(graphs.name(graphs.graphOf(p)));
  encoder.addExisting(previous, [&](const Triple& t) {
    return !cleared[t.p] && (deleted.empty() || !std::binary_search(deleted.begin(), deleted.end(), t));
  });
}

// Builds `previous` (nullptr: nothing yet) changed by `changes` as
// generation `next` in next.dir, all but its catalog, which it returns.
Catalog buildGeneration(const Generation& next, const GraphStore* previous, const GraphChanges& changes,
                        const LoadOptions& options, LoadSummary& summary) {
  const auto start = Clock::now();
  const std::filesystem::path& dir = next.dir;
  GraphEncoder encoder(dir / "sort", sortBufferBytes(options));
  Catalog catalog;
  catalog.generation = next.number;
  if (previous) {
    addPrevious(*previous, changes, encoder);
    catalog.inputFiles = previous->catalog().inputFiles;
  }
  if (!changes.inserted().empty()) {
    ++catalog.inputFiles;  // the blank-node scope of the update (graph_changes.h)
    encoder.addTerms(changes.inserted());
  }

  summary.triplesRead = changes.inserted().size();
  readInputs(changes.loadedFiles(), options, encoder, catalog, summary, start);
  crashPoint("after-parse");
  summary.parseSeconds = secondsSince(start);
  summary.encodeSeconds = encoder.encodeSeconds();

  catalog.vertexCount = static_cast<uint32_t>(encoder.vertices().size());
  catalog.predicates.resize(encoder.predicates().size());
  // The vertex terms hold the previous generation's too (addExisting), so
  // the value column is complete after an incremental load.
  const NumberedTerms vertexTerms = encoder.vertices().numbered();
  tbb::parallel_invoke(
      [&] {
        summary.termFilesSeconds = timed([&] {
          tbb::parallel_invoke(
              [&] { writeDictionary(dir / kDictionaryDir, vertexTerms, encoder.predicates().numbered()); },
              [&] { writeValueColumn(dir / kValuesFile, vertexTerms.count, vertexTerms.term); },
              [&] { writeTermColumn(dir / kTermsFile, vertexTerms); },
              [&] {
                if (!options.textIndex.value_or(previous == nullptr || previous->text() != nullptr)) return;
                summary.textIndexSeconds = timed([&] { writeTextIndex(dir / kTextFile, vertexTerms); });
              });
        });
      },
      [&] {
        summary.adjacencySeconds = timed([&] {
          catalog.tripleCount = writeAdjacency(dir, encoder.sorter(), encoder.vertices().finalIds(), catalog);
          // 8 bytes a vertex: left out beyond 2^28 vertices (2 GiB).
          if (catalog.vertexCount <= (uint64_t{1} << 28)) {
            catalog.characteristicSets =
                findCharacteristicSets(AdjacencyFile(dir / kOutAdjacencyFile, catalog.vertexCount), catalog.vertexCount,
                                       kKeptCharacteristicSets);
          }
        });
      });
  std::filesystem::remove_all(dir / "sort");
  summary.sortSeconds = encoder.sorter().sortSeconds();
  summary.buildSeconds = secondsSince(start) - summary.parseSeconds;
  // The union of the named graphs repeats their triples and predicates: it is not counted.
  summary.predicates = catalog.predicates.size();
  for (uint32_t p = 0; p < catalog.predicates.size(); ++p) {
    if (splitGraphPredicateKey(encoder.predicates().term(p)).graph == kUnionGraphName) {
      catalog.tripleCount -= catalog.predicates[p].triples;
      --summary.predicates;
    }
  }
  summary.triplesBefore = previous ? previous->catalog().tripleCount : 0;
  summary.uniqueTriples = catalog.tripleCount;
  summary.terms = catalog.vertexCount;
  return catalog;
}

// Builds the writer's next generation, catalog included, ready to commit.
LoadSummary buildNext(GenerationWriter& writer, const GraphStore* previous, const GraphChanges& changes,
                      const LoadOptions& options) {
  const auto start = Clock::now();
  LoadSummary summary;
  const Catalog catalog = buildGeneration(writer.next(), previous, changes, options, summary);
  crashPoint("after-build");
  writeCatalog(writer.next().dir / kCatalogFile, catalog);
  summary.seconds = secondsSince(start);
  summary.peakMemoryBytes = peakMemoryBytes();
  return summary;
}

// Permissions, a full disk: the message of the operating system says which.
template <typename Write>
LoadSummary reportingFileErrors(Write write) {
  try {
    return write();
  } catch (const std::filesystem::filesystem_error& e) {
    throw StorageError(e.path1().string() + ": " + e.code().message());
  }
}

}  // namespace

void checkRdfInput(const std::string& input) {
  readRdfFile(input, formatOf(input, {}), [](const RdfStatementView&) {});
}

LoadSummary loadIntoDatabase(const std::filesystem::path& root, const std::vector<std::string>& inputs,
                             const LoadOptions& options) {
  requireDirectoryOrNothing(root);
  return reportingFileErrors([&] {
    const auto start = Clock::now();
    GenerationWriter writer(root);
    std::optional<GraphStore> previous;
    if (writer.previous()) previous.emplace(root);
    GraphChanges changes;
    const std::string graph = graphTerm(options.graph);
    for (const std::string& input : inputs) changes.load(input, graph);
    LoadSummary summary = buildNext(writer, previous ? &*previous : nullptr, changes, options);
    previous.reset();  // not pinned at the commit, which then removes it
    writer.commit();
    summary.seconds = secondsSince(start);
    return summary;
  });
}

LoadSummary buildChangedGeneration(GenerationWriter& writer, const GraphStore& previous, const GraphChanges& changes,
                                   const LoadOptions& options) {
  return reportingFileErrors([&] { return buildNext(writer, &previous, changes, options); });
}

void writeStepGeneration(const Generation& step, const GraphStore& previous, const GraphChanges& changes,
                         const LoadOptions& options) {
  reportingFileErrors([&] {
    LoadSummary summary;
    std::filesystem::create_directory(step.dir);
    writeCatalog(step.dir / kCatalogFile, buildGeneration(step, &previous, changes, options, summary));
    return summary;
  });
}

}  // namespace gsparql
