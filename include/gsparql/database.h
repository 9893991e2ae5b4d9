#pragma once
// The embedding API: load RDF into a database directory and open it.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/cost_model.h"
#include "gsparql/error.h"
#include "gsparql/load.h"
#include "gsparql/query.h"
#include "gsparql/statistics.h"
#include "gsparql/update.h"

#include "gsparql/export.h"

namespace gsparql {

class GraphStore;

// Knobs for experiments with the GPU executor (the SGSI ablations); the
// defaults are what a user wants.
struct DatabaseOptions {
  // Device memory the GPU executor may hold (--gpu-memory); 0: what is free
  // when it starts. Queries whose tables would outgrow it run depth-first
  // over slices of rows instead of failing.
  uint64_t gpuMemoryBytes = 0;
  // Adjacency kept on the GPU (shared by gpuExecutors); 0: a quarter of the
  // GPU memory limit. A query whose adjacency outgrows it streams the
  // largest in key ranges.
  uint64_t gpuCacheBytes = 0;
  // The GPUs the queries use, by CUDA ordinal (--gpus); empty: every one.
  // Each holds its own copy of the adjacency; concurrent queries go to the
  // least busy, and a heavy BGP is cut into chunks that all of them run
  // (engine/placement/device_spread_executor.h).
  std::vector<uint32_t> gpus;
  // With several GPUs: device memory each keeps for the key ranges of
  // adjacency too large for one GPU's cache, which every GPU copies from them
  // over NVLink instead of from the host (--gpu-peer-memory;
  // engine/gpu/peer_ranges.cuh). nullopt: a quarter of each GPU's memory
  // limit, used only once a query's adjacency outgrows the cache; 0: none.
  std::optional<uint64_t> gpuPeerBytes;
  // GPU executors per GPU (--gpu-streams): each runs one call at a time on
  // its own CUDA stream, with 1/n of the GPU's memory limit and its own
  // adjacency cache; calls beyond them wait. 0: one.
  uint32_t gpuExecutors = 1;
  // Copy the adjacency of every predicate (what fits each GPU executor's
  // cache) to the GPU as the database opens, where there is a GPU
  // (--gpu-preload), rather than each predicate's when a query first reads
  // it there: for servers and benchmarks, whose queries then never wait for
  // copies, and whose auto places every BGP by its run alone.
  bool gpuPreload = false;
  bool gpuPlainCsrLookups = false;     // binary search over sorted keys instead of PCSR groups
  bool gpuTwoPassJoin = false;         // count, then write, instead of Prealloc-Combine
  bool gpuNaiveSetOperations = false;  // one thread per task with linear merges
  bool gpuFuseLightSteps = true;       // one kernel per step and no host synchronisation for light queries
  // The optimizer's cost model; nullopt: the one `gsparql calibrate` cached
  // on this machine, else the defaults (gsparql/cost_model.h).
  std::optional<CostModel> costModel;
};

class GSPARQL_API Database {
 public:
  // Adds the triples of `inputs` (paths, "-" for standard input) to the
  // database at `dir`, creating it if needed. Atomic: on any error the
  // database is left exactly as it was.
  static LoadSummary load(const std::filesystem::path& dir, const std::vector<std::string>& inputs,
                          const LoadOptions& options = {});

  // Runs a SPARQL 1.1 Update request on the database at `dir` (created if
  // needed) and returns once its effect is on disk: all of it, or on any
  // error nothing. Its patterns run on the CPU executor under
  // `options.query` (timeout, memory budget). Writers take turns: one that
  // finds another writing (a load, an update) waits for it up to the
  // timeout, then fails with StorageError. Readers opened before keep
  // their snapshot (isLatest() turns false). Several requests in one
  // transaction: UpdateBatch (gsparql/update_batch.h).
  static UpdateSummary update(const std::filesystem::path& dir, std::string_view sparql,
                              const UpdateOptions& options = {});
  // Folds the current generation's delta files into a new generation, as a
  // writer (it fails like update() when another writes). Readers keep
  // their snapshot meanwhile. False when there was no delta.
  static bool mergeDelta(const std::filesystem::path& dir);

  // Opens the current generation for reading; it stays readable while
  // later loads replace it.
  explicit Database(const std::filesystem::path& dir, const DatabaseOptions& options = {});
  ~Database();
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;

  // Parses and runs a SPARQL query. Throws QueryError for syntax errors
  // (with line, column and a caret) and for features not supported yet.
  QueryResult query(std::string_view sparql, const QueryOptions& options = {}) const;

  // Runs a query and writes its result to `out` as it comes. A SELECT's rows
  // are written as the operators produce them: at once where nothing needs
  // all of them first (ORDER BY, DISTINCT, GROUP BY and the build side of
  // joins do), with the BGP found a chunk at a time on the CPU executor, in
  // bounded memory. ASK and graph results are written at the end. `format`
  // nullopt: TSV, or N-Triples for a graph; one that cannot hold the result
  // throws QueryError before anything is written. An error after rows were
  // written (a timeout, say) leaves them written; output that fails stops
  // the query.
  QuerySummary queryTo(std::string_view sparql, std::ostream& out, std::optional<ResultFormat> format,
                       const QueryOptions& options = {}) const;
  // The same, with the format chosen once the query is parsed and its form
  // known (content negotiation); `choose` may throw to refuse the form, and
  // a format that cannot hold the result throws QueryError, both before
  // anything is written.
  using FormatChooser = std::function<ResultFormat(QueryForm)>;
  QuerySummary queryTo(std::string_view sparql, std::ostream& out, const FormatChooser& choose,
                       const QueryOptions& options = {}) const;

  // False once a load has committed a newer generation than the one this
  // Database reads; open the directory again to read it, or take newest().
  bool isLatest() const;
  // The directory's newest snapshot, with this one's options. Where only
  // updates were committed since (delta files, not a load or a merge), this
  // snapshot extended by them: nothing opened again, and what they did not
  // change shared (the GPU's copies, the kept plans). Else the directory
  // opened afresh, as the constructor does.
  Database newest() const;

  // Measures what BGPs cost on each executor of this machine (the GPU's
  // where one is) by running `queries` (SPARQL texts, such as a benchmark's),
  // and fits the cost model's constants to the times: the model the
  // optimizer and --backend auto should use here (writeCostModel caches it).
  Calibration calibrate(const std::vector<std::string>& queries, const CalibrationOptions& options = {}) const;

  DatabaseStatistics statistics() const;
  // Writes every triple as N-Quads (a named graph's with its name; N-Triples
  // where the dataset has no named graphs), grouped by predicate.
  void dump(std::ostream& out) const;
  // The same in a graph format (NTriples, Turtle, NQuads, TriG, RdfXml).
  // N-Triples, Turtle and RDF/XML hold no named graphs: for a dataset with
  // any, they throw QueryError before writing anything.
  void dump(std::ostream& out, ResultFormat format) const;
  // Recomputes all checksums; throws StorageError on corruption.
  void verify() const;

 private:
  friend class UpdateBatch;  // hands over the snapshot it leaves
  // A snapshot already open (storage/graph_store.h). `predecessor`: the
  // snapshot it was made from by an update batch, whose kept BGP plans it
  // shares while both are of one generation (ids mean the same terms).
  Database(GraphStore&& store, const DatabaseOptions& options, const Database* predecessor);
  const GraphStore& store() const;

  class Impl;
  std::unique_ptr<Impl> impl_;
};

// True when `sparql` is an update request (its first keyword after PREFIX
// and BASE is INSERT, DELETE, LOAD, CLEAR, ...) rather than a query.
GSPARQL_API bool isUpdateRequest(std::string_view sparql);

}  // namespace gsparql
