#include "gsparql/database.h"

#include <algorithm>
#include <optional>
#include <ostream>

#include <chrono>
#include <unistd.h>
#include <mutex>

#include "api/calibration.h"
#include "api/query_result_impl.h"
#include "api/request_options.h"
#include "api/result_sink.h"
#include "api/shared_gpu_executors.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/optimizer/optimizer.h"
#include "engine/placement/placing_executor.h"
#include "loaders/loader.h"
#include "parser/parse.h"
#include "rdf/rdf_formats.h"
#include "storage/graph_store.h"
#include "storage/latest_check.h"

namespace gsparql {
namespace {

QueryForm publicForm(sparql::Query::Form form) {
  using Form = sparql::Query::Form;
  switch (form) {
    case Form::Select: return QueryForm::Select;
    case Form::Ask: return QueryForm::Ask;
    case Form::Construct: return QueryForm::Construct;
    case Form::Describe: return QueryForm::Describe;
  }
  return QueryForm::Select;
}

std::vector<std::string> allTerms(const Dictionary& dictionary, TermSpace space, uint64_t count) {
  std::vector<std::string> terms(count);
  dictionary.forEach(space, [&](uint32_t id, std::string_view term) { terms.at(id) = term; });
  return terms;
}

}  // namespace

uint64_t defaultMemoryBudgetBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return UINT64_MAX;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2;
}

LoadSummary Database::load(const std::filesystem::path& dir, const std::vector<std::string>& inputs,
                           const LoadOptions& options) {
  return loadIntoDatabase(dir, inputs, options);
}

std::string snapshotName(uint64_t generation, uint32_t deltaFiles) {
  std::string text = "generation " + std::to_string(generation);
  if (deltaFiles > 0) text += " + delta file " + std::to_string(deltaFiles);
  return text;
}

std::string UpdateSummary::snapshot() const { return snapshotName(generation, merged ? 0 : deltaFile); }

bool isUpdateRequest(std::string_view text) { return sparql::isUpdateRequest(text); }

// The store and the executors, which keep state (the GPU's cached adjacency) between queries.
class Database::Impl {
 public:
  Impl(GraphStore opened, const DatabaseOptions& options, std::shared_ptr<engine::BgpPlanCache> keptPlans = nullptr)
      : store(std::move(opened)),
        plans(keptPlans ? std::move(keptPlans) : std::make_shared<engine::BgpPlanCache>(engine::kCachedBgpPlans)),
        cpu(engine::makeCpuExecutor()), options(options), costModel_(options.costModel) {
    // Preloading makes the GPU executors as the database opens, so that a
    // server's first queries do not wait for the copies either.
    if (options.gpuPreload && engine::gpuAvailable()) {
      std::lock_guard lock(executorsMutex);
      gpuExecutor();
    }
  }

  static bool runsOnGpu(Backend backend) {
    return backend == Backend::Gpu || (backend == Backend::Auto && engine::gpuAvailable());
  }

  // The calibrated constants of the executors `backend` may run a BGP on.
  std::vector<ExecutorCosts> executorCosts(Backend backend) const {
    if (backend == Backend::Auto && engine::gpuAvailable()) return {costModel().cpu, costModel().gpu};
    return {runsOnGpu(backend) ? costModel().gpu : costModel().cpu};
  }

  // Auto places each BGP on the CPU or the GPU by the cost model
  // (engine/placement/placing_executor.h), where a GPU exists. Made on first use,
  // by one query at a time.
  engine::Executor& executorFor(Backend backend) {
    if (backend == Backend::Cpu || (backend == Backend::Auto && !engine::gpuAvailable())) return *cpu;
    std::lock_guard lock(executorsMutex);
    if (backend == Backend::Auto) {
      if (!placing) placing = engine::makePlacingExecutor(*cpu, gpuExecutor(), costModel());
      return *placing;
    }
    return gpuExecutor();
  }

  // The GPU executors (api/shared_gpu_executors.h), shared with the
  // databases open with the same setup; what they decline runs on the CPU.
  // Preloading copies what they lack of this snapshot. Under executorsMutex.
  engine::Executor& gpuExecutor() {
    if (!gpu) {
      gpu = sharedGpuExecutors(gpuSetup());
      if (options.gpuPreload) gpu->gpu->preload(store);  // every GPU at once
    }
    return *gpu->gpu;
  }

  GpuSetup gpuSetup() const {
    return {gpuDevices(), options.gpuExecutors, options.gpuMemoryBytes, options.gpuCacheBytes, options.gpuPeerBytes,
            options.gpuPlainCsrLookups, options.gpuTwoPassJoin, options.gpuNaiveSetOperations,
            options.gpuFuseLightSteps, costModel().gpu};
  }

  // The options' GPUs, each checked to exist; all of them by default. Where
  // there is none, GPU 0, whose device object then says why (no GPU backend
  // in this build, or no device).
  std::vector<uint32_t> gpuDevices() const {
    const auto present = static_cast<uint32_t>(engine::gpuCount());
    if (present == 0) return {0};
    std::vector<uint32_t> devices = options.gpus;
    if (devices.empty()) {
      for (uint32_t d = 0; d < present; ++d) devices.push_back(d);
    }
    for (uint32_t d : devices) {
      if (d >= present) {
        throw QueryError("there is no GPU " + std::to_string(d) + ": this machine has " + std::to_string(present) +
                         ", numbered from 0 (--gpus)");
      }
    }
    return devices;
  }

  // Runs a parsed query on the executor `options` asks for.
  engine::QueryOutcome run(const sparql::Query& parsed, const QueryOptions& options,
                           const engine::QueryRequest& request, engine::RowSink* sink = nullptr) {
    // The CPU executor is stateless; each GPU one serves one call at a time
    // (the pool), so queries run concurrently (gsparql serve), on the GPU as
    // many as there are GPU executors.
    engine::Executor& executor = executorFor(options.backend);
    const auto orderer = ordererFor(options, executor);
    return engine::runQuery(parsed, store, executor, *orderer, request, sink);
  }

  // Auto plans for the GPU where one is: the BGPs worth planning harder are
  // the costly ones, which it places there. Their estimates are taken again
  // by the executor's own walks (the GPU's), else the CPU's.
  // The statistics need no cost model (nor a cache file to read one from).
  std::unique_ptr<engine::JoinOrderer> ordererFor(const QueryOptions& options, engine::Executor& executor) const {
    engine::OptimizerSetup setup;
    setup.search = options.optimizer;
    setup.plans = plans.get();
    if (options.optimizer != Optimizer::Statistics) {
      setup.executors = executorCosts(options.backend);
      setup.refiner = executor.walkEstimator() ? executor.walkEstimator() : cpuWalks.get();
      setup.operatorCosts = costModel().cpu;
    }
    return engine::makeOptimizer(store, setup);
  }

  // The whole result of a parsed query, its timings counted from `start`.
  QueryResult result(const sparql::Query& parsed, const QueryOptions& options, Clock::time_point start) {
    auto impl = std::make_unique<QueryResult::Impl>();
    impl->timings.parseMilliseconds = millisecondsSince(start);
    impl->outcome = run(parsed, options, requestFrom(options, start));
    impl->store = &store;
    impl->timings.planMilliseconds = impl->outcome.planMilliseconds;
    impl->timings.executeMilliseconds = impl->outcome.executeMilliseconds;
    impl->prefixes = parsed.prefixes;
    QueryResult result(std::move(impl));
    const size_t rows = result.isGraph() ? result.tripleCount() : result.rowCount();
    if (options.maxRows > 0 && rows > options.maxRows) throw QueryResultTooLarge(options.maxRows);
    return result;
  }

  GraphStore store;
  LatestCheck latest{store};
  // Shared with the snapshots update batches make from this one (Database's
  // private constructor).
  std::shared_ptr<engine::BgpPlanCache> plans;
  std::mutex executorsMutex;      // making the executors
  std::unique_ptr<engine::Executor> cpu;
  std::shared_ptr<GpuExecutors> gpu;
  std::unique_ptr<engine::Executor> placing;  // of cpu and gpu
  DatabaseOptions options;
  // The options' model, else the cached one, read when a query first needs
  // it: a broken cache fails the queries that use it (naming the file), not
  // `info` or `dump`.
  // A mutex, not std::call_once: the read may throw, and an exception
  // through call_once (glibc's pthread_once) aborts the process where
  // libgcc is linked statically (the portable build).
  const CostModel& costModel() const {
    std::lock_guard lock(costModelMutex_);
    if (!costModel_) costModel_ = cachedOrDefaultCostModel();
    return *costModel_;
  }
  mutable std::optional<CostModel> costModel_;
  mutable std::mutex costModelMutex_;
  std::unique_ptr<engine::WalkEstimator> cpuWalks = engine::makeCpuWalkEstimator();
};

Database::Database(const std::filesystem::path& dir, const DatabaseOptions& options)
    : impl_(std::make_unique<Impl>(GraphStore(dir), options)) {}
namespace {

// A plan is valid whatever the data (engine/bgp/plan.h); its key speaks of
// ids, which mean the same terms in the snapshots of one generation.
std::shared_ptr<engine::BgpPlanCache> plansToShare(const GraphStore& store, const GraphStore* predecessor,
                                                   const std::shared_ptr<engine::BgpPlanCache>& plans) {
  if (predecessor == nullptr || predecessor->generation().dir != store.generation().dir) return nullptr;
  return plans;
}

}  // namespace

Database::Database(GraphStore&& store, const DatabaseOptions& options, const Database* predecessor)
    : impl_(std::make_unique<Impl>(
          std::move(store), options,
          plansToShare(store, predecessor ? &predecessor->impl_->store : nullptr,
                       predecessor ? predecessor->impl_->plans : nullptr))) {
  // The GPU executors the predecessor made, taken while it is open: they
  // would go with it (a server drops a snapshot once it publishes the next),
  // and with them what they hold of the data the two share.
  if (predecessor == nullptr) return;
  std::scoped_lock lock(impl_->executorsMutex, predecessor->impl_->executorsMutex);
  if (predecessor->impl_->gpu) impl_->gpuExecutor();
}
const GraphStore& Database::store() const { return impl_->store; }
Database::~Database() = default;
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;

QueryResult Database::query(std::string_view text, const QueryOptions& options) const {
  const auto start = Clock::now();
  return impl_->result(*parseQuery(text, options), options, start);
}

QuerySummary Database::queryTo(std::string_view text, std::ostream& out, std::optional<ResultFormat> format,
                               const QueryOptions& options) const {
  return queryTo(text, out, [&](QueryForm form) {
    const bool graph = form == QueryForm::Construct || form == QueryForm::Describe;
    return format.value_or(graph ? ResultFormat::NTriples : ResultFormat::Tsv);
  }, options);
}

QuerySummary Database::queryTo(std::string_view text, std::ostream& out, const FormatChooser& choose,
                               const QueryOptions& options) const {
  using Form = sparql::Query::Form;
  const auto start = Clock::now();
  const std::shared_ptr<const sparql::Query> query = parseQuery(text, options);
  const sparql::Query& parsed = *query;
  const bool graph = parsed.form == Form::Construct || parsed.form == Form::Describe;
  const ResultFormat chosen = choose(publicForm(parsed.form));
  checkFormatFits(chosen, graph, parsed.form == Form::Ask);
  QuerySummary summary;
  if (parsed.form != Form::Select) {  // these need all their solutions first
    const QueryResult result = impl_->result(parsed, options, start);
    result.write(out, chosen);
    summary.rows = graph ? result.tripleCount() : 1;
    summary.timings = result.timings();
    if (options.explain) summary.explain = result.explain();
    summary.stopped = !out;
    return summary;
  }
  summary.timings.parseMilliseconds = millisecondsSince(start);
  engine::QueryRequest request = requestFrom(options, start);
  request.run.streamRows = true;
  ResultSink sink(out, chosen, parsed.prefixes, options.maxRows);
  const engine::QueryOutcome outcome = impl_->run(parsed, options, request, &sink);
  if (sink.rowLimitReached()) throw QueryResultTooLarge(options.maxRows);
  sink.end();
  summary.rows = sink.rowsWritten();
  summary.stopped = sink.outputFailed();
  summary.writeMilliseconds = sink.writeMilliseconds();
  summary.cells = sink.cellsWritten();
  summary.timings.planMilliseconds = outcome.planMilliseconds;
  summary.timings.executeMilliseconds = outcome.executeMilliseconds;
  if (options.explain) summary.explain = engine::explainPlan(outcome, impl_->store);
  return summary;
}

bool Database::isLatest() const { return impl_->latest.isLatest(); }

Database Database::newest() const {
  if (std::optional<GraphStore> newer = impl_->store.withNewerDelta()) return Database(std::move(*newer), impl_->options, this);
  return Database(impl_->store.generation().dir.parent_path(), impl_->options);
}

// Plans with the sampling orderer, so that the plans measured do not depend
// on the model being fitted.
Calibration Database::calibrate(const std::vector<std::string>& queries, const CalibrationOptions& options) const {
  return calibrateWith(queries, options, impl_->costModel(), engine::gpuAvailable(),
                       [&](const std::string& text, Backend backend) {
                         QueryOptions query{backend};
                         query.optimizer = Optimizer::Walks;
                         query.timeout = options.timeout;
                         const auto start = Clock::now();
                         const engine::QueryOutcome outcome =
                             impl_->run(*parseQuery(text, query), query, requestFrom(query, start));
                         return Measurement{workOf(*outcome.plan), outcome.executeMilliseconds,
                                            copiedBytesOf(*outcome.plan)};
                       });
}

DatabaseStatistics Database::statistics() const {
  const Catalog& catalog = impl_->store.catalog();
  const NamedGraphs& graphs = impl_->store.graphs();
  DatabaseStatistics stats{catalog.generation, catalog.tripleCount, catalog.vertexCount, graphs.named().size(),
                           impl_->store.deltaFiles(), {}};
  for (uint32_t p = 0; p < catalog.predicates.size(); ++p) {
    if (graphs.isUnion(graphs.graphOf(p))) continue;  // a copy of the named graphs'
    stats.predicates.push_back({graphs.predicateTerm(p), catalog.predicates[p], graphs.name(graphs.graphOf(p))});
  }
  return stats;
}

void Database::dump(std::ostream& out) const { dump(out, ResultFormat::NQuads); }

void Database::dump(std::ostream& out, ResultFormat format) const {
  const auto graphFormat = static_cast<results::Format>(format);
  if (!results::isGraphFormat(graphFormat)) {
    throw QueryError("a dump is written in a graph format (nt, ttl, nq, trig, rdfxml, jsonld), not " +
                     std::string(results::formatName(graphFormat)));
  }
  const Catalog& catalog = impl_->store.catalog();
  const NamedGraphs& graphs = impl_->store.graphs();
  const bool quads = rdf::rdfSyntaxOf(format)->namedGraphs;
  if (!quads && !graphs.named().empty()) {
    const size_t named = graphs.named().size();
    throw QueryError("the dataset has " + std::to_string(named) + (named == 1 ? " named graph" : " named graphs") + ", which " +
                     std::string(results::formatName(graphFormat)) + " cannot hold (use nq, trig or jsonld)");
  }
  auto vertices = allTerms(impl_->store.dictionary(), TermSpace::Vertex, catalog.vertexCount);
  const AdjacencyFile& adjacency = impl_->store.adjacency(pcsr::Direction::Out);
  // JSON-LD has no short form without a context: the usual vocabularies' prefixes make one.
  const results::Prefixes usual = {{"rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"},
                                   {"rdfs", "http://www.w3.org/2000/01/rdf-schema#"},
                                   {"xsd", "http://www.w3.org/2001/XMLSchema#"},
                                   {"owl", "http://www.w3.org/2002/07/owl#"}};
  auto writer = results::makeGraphWriter(graphFormat, out, format == ResultFormat::JsonLd ? usual : results::Prefixes{});
  try {
    for (uint32_t p = 0; p < adjacency.predicateCount(); ++p) {
      if (graphs.isUnion(graphs.graphOf(p))) continue;  // a copy of the named graphs'
      const PredicateAdjacency& edges = adjacency.predicate(p);
      const std::string& graph = graphs.name(graphs.graphOf(p));
      const std::string& predicate = graphs.predicateTerm(p);
      for (size_t k = 0; k < edges.keys().size(); ++k) {
        for (uint32_t o : edges.neighboursAt(k)) writer->quad(vertices[edges.keys()[k]], predicate, vertices[o], graph);
      }
    }
    writer->end();
  } catch (const results::WriteError& e) {
    throw QueryError(e.what());
  }
}

void Database::verify() const { impl_->store.verify(); }

}  // namespace gsparql
