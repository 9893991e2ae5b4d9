// The writes of the API: update batches (gsparql/update_batch.h), and
// Database::update and Database::mergeDelta through them.
#include "gsparql/update_batch.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include "api/request_options.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/optimizer.h"
#include "engine/query/update_runner.h"
#include "loaders/loader.h"
#include "storage/delta_file.h"
#include "storage/generations.h"
#include "storage/graph_changes.h"
#include "storage/graph_store.h"

namespace gsparql {
namespace {

// The intermediate state of an update whose later operations read what
// earlier ones changed: a folder beside the writer's scratch folder, each
// replacing the one before, the last removed with this object (or by the
// commit, which removes every gen-* folder that is not a generation).
class UpdateSteps {
 public:
  explicit UpdateSteps(const Generation& next) : next_(next) {}
  ~UpdateSteps() { drop(); }
  const GraphStore& last(const GraphStore& base) const { return store_ ? *store_ : base; }
  const GraphStore& write(const GraphStore& previous, const GraphChanges& changes) {
    const Generation step{next_.number, next_.dir.string() + ".step-" + std::to_string(++steps_)};
    writeStepGeneration(step, previous, changes, {});
    auto store = std::make_unique<GraphStore>(PinnedGeneration::pinFolder(step));
    drop();  // `previous`, when it was a step, is read no more
    store_ = std::move(store);
    return *store_;
  }
  // Unpins and removes the step last written.
  void drop() {
    if (!store_) return;
    const std::filesystem::path dir = store_->generation().dir;
    store_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }

 private:
  Generation next_;
  int steps_ = 0;
  std::unique_ptr<GraphStore> store_;
};

// Writes `current`, a generation with its delta, as the writer's next
// generation and commits it.
void commitMerged(GenerationWriter& writer, std::optional<GraphStore>& current) {
  buildChangedGeneration(writer, *current, GraphChanges(), {});
  current.reset();  // not pinned at the commit, which then removes it
  writer.commit();
}

std::unique_ptr<engine::JoinOrderer> cpuOrderer(const GraphStore& store) {
  const CostModel model = cachedOrDefaultCostModel();
  engine::OptimizerSetup setup;
  setup.executors = {model.cpu};
  setup.operatorCosts = model.cpu;
  return engine::makeOptimizer(store, setup);
}

}  // namespace

class UpdateBatch::Impl {
 public:
  Impl(std::filesystem::path dir, std::chrono::milliseconds patience, const GraphStore* latest)
      : dir_(std::move(dir)), patience_(patience), latest_(latest) {
    begin();
  }

  std::vector<UpdateSummary> apply(std::string_view text, const UpdateOptions& options) {
    const auto start = Clock::now();
    const sparql::UpdateRequest request = parseUpdateRequest(text, options.query);
    ready();
    const auto cpu = engine::makeCpuExecutor();
    UpdateSteps steps(writer_->next());
    engine::UpdateContext context{*cpu, requestFrom(options.query, start), &cpuOrderer,
                                  [&](const GraphChanges& changes) -> const GraphStore& {
                                    return steps.write(steps.last(*store_), changes);
                                  },
                                  options.allowLoad, &checkRdfInput};
    context.requestInScope = static_cast<uint32_t>(unwritten_.size());
    const GraphChanges changes = engine::planUpdate(request, *store_, context);
    const GraphStore& changed = steps.last(*store_);
    UpdateSummary summary;
    summary.operations = request.operations.size();
    summary.triplesBefore = store_->catalog().tripleCount;
    summary.triplesAfter = summary.triplesBefore;
    if (&changed == &*store_ && (changes.empty() || fitsDelta(changes))) {
      holdInDelta(changes, summary);
      unwritten_.push_back({summary, start, options.mergeWhenDue});
    } else {
      commitGeneration(steps, changes, summary);
      durable_.push_back(finished(summary, start));
    }
    return std::exchange(durable_, {});
  }

  std::vector<UpdateSummary> commit() {
    if (!store_) return std::exchange(durable_, {});  // the last request committed a generation: nothing is held
    const bool mergeWanted =
        std::any_of(unwritten_.begin(), unwritten_.end(), [](const Unwritten& u) { return u.mergeWhenDue; });
    const bool writes = !pending_.empty();
    const size_t first = durable_.size();
    writeDelta();
    const bool mergeDue =
        writes && deltaDueForMerge(store_->deltaFiles(), store_->deltaRecords(), store_->catalog().tripleCount);
    if (mergeDue && mergeWanted) commitMerged(*writer_, store_);
    for (size_t i = first; i < durable_.size(); ++i) {
      UpdateSummary& summary = durable_[i];
      if (!summary.changed) continue;
      summary.merged = mergeDue && mergeWanted;
      summary.mergeDue = mergeDue && !mergeWanted;
      if (summary.merged) summary.generation = writer_->next().number;
    }
    writer_.reset();  // the lock goes; this snapshot stays pinned
    return std::exchange(durable_, {});
  }

  // The snapshot the batch leaves, unless it merged (then the directory has a newer one).
  std::optional<GraphStore> takeSnapshot() { return std::exchange(store_, std::nullopt); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  // A request held in memory until the next delta file is written.
  struct Unwritten {
    UpdateSummary summary;
    Clock::time_point start;
    bool mergeWhenDue;
  };

  // The one writer from here to the commit, so that the patterns read the
  // generation that the updates change; another is waited for up to the
  // patience.
  void begin() {
    writer_.emplace(dir_, patience_);
    if (!writer_->previous()) return;
    if (latest_ && latest_->isLatest()) {  // no other writer can change that now
      store_.emplace(*latest_);
    } else {
      store_.emplace(dir_);
    }
  }

  // The writer and the snapshot that the next request reads: again after a
  // new generation (a writer commits once) or a failure that lost them.
  void ready() {
    if (!writer_) begin();
    if (store_) return;
    writer_.reset();  // an empty database to start from, by a writer of its own
    loadIntoDatabase(dir_, {}, {});
    begin();
  }

  // The changes (triples only) go to the snapshot now, for the requests
  // after this one, and to the next delta file at the next write.
  void holdInDelta(const GraphChanges& changes, UpdateSummary& summary) {
    if (changes.empty()) return;
    std::vector<DeltaRecord> records = deltaRecordsOf(changes);
    if (pending_.size() + records.size() > kMaxDeltaRecords) writeDelta();  // a file stays within the limit
    try {
      store_->extend(records, 0);
    } catch (...) {
      reopen();  // the snapshot half changed: as on disk, with the requests before this one
      throw;
    }
    pending_.insert(pending_.end(), std::make_move_iterator(records.begin()), std::make_move_iterator(records.end()));
    summary.triplesAfter = store_->catalog().tripleCount;
    summary.changed = true;
  }

  // A request that needs a new generation: the requests before it are
  // written first, so that it starts from what is on disk.
  void commitGeneration(UpdateSteps& steps, const GraphChanges& changes, UpdateSummary& summary) {
    writeDelta();
    const GraphStore& changed = steps.last(*store_);
    try {
      summary.triplesAfter = buildChangedGeneration(*writer_, changed, changes, {}).uniqueTriples;
      steps.drop();
      store_.reset();  // not pinned at the commit, which then removes it
      writer_->commit();
    } catch (...) {
      writer_.reset();  // its scratch folder goes; ready() reads the disk again
      store_.reset();
      throw;
    }
    summary.generation = writer_->next().number;
    summary.deltaFile = 0;
    summary.changed = true;
    writer_.reset();
  }

  // Writes the held records as the next delta file: the requests held
  // become durable.
  void writeDelta() {
    if (!pending_.empty()) {
      writeDeltaFile(store_->generation().dir, store_->deltaFiles() + 1, pending_);
      pending_.clear();
      store_->extend({}, 1);
    }
    for (Unwritten& u : unwritten_) durable_.push_back(finished(u.summary, u.start));
    unwritten_.clear();
  }

  // The summary of a request once durable: what readers see from then on.
  UpdateSummary finished(UpdateSummary summary, Clock::time_point start) const {
    if (store_) {
      summary.generation = store_->catalog().generation;
      summary.deltaFile = store_->deltaFiles();
    }
    summary.seconds = millisecondsSince(start) / 1000;
    return summary;
  }

  // The snapshot as on disk, with the records held applied again.
  void reopen() {
    store_.emplace(dir_);
    if (!pending_.empty()) store_->extend(pending_, 0);
  }

  std::filesystem::path dir_;
  std::chrono::milliseconds patience_;
  const GraphStore* latest_;  // a snapshot readers hold, or null
  std::optional<GenerationWriter> writer_;
  // The current generation with its delta files and the records held: what
  // the next request reads.
  std::optional<GraphStore> store_;
  std::vector<DeltaRecord> pending_;  // held, in the order of the requests
  std::vector<Unwritten> unwritten_;
  std::vector<UpdateSummary> durable_;  // not yet returned
};

UpdateBatch::UpdateBatch(const std::filesystem::path& dir, std::chrono::milliseconds patience, const Database* latest)
    : impl_(std::make_unique<Impl>(dir, patience, latest ? &latest->store() : nullptr)), latest_(latest) {}
UpdateBatch::~UpdateBatch() = default;

std::vector<UpdateSummary> UpdateBatch::apply(std::string_view sparql, const UpdateOptions& options) {
  return impl_->apply(sparql, options);
}
std::vector<UpdateSummary> UpdateBatch::commit() { return impl_->commit(); }
Database UpdateBatch::snapshot(const DatabaseOptions& options) {
  if (std::optional<GraphStore> store = impl_->takeSnapshot()) return Database(std::move(*store), options, latest_);
  return Database(impl_->dir(), options);
}

UpdateSummary Database::update(const std::filesystem::path& dir, std::string_view text, const UpdateOptions& options) {
  // Another writer is waited for up to the update's time limit.
  UpdateBatch batch(dir, options.query.timeout.value_or(kWriterPatience));
  std::vector<UpdateSummary> summaries = batch.apply(text, options);
  for (UpdateSummary& summary : batch.commit()) summaries.push_back(summary);
  return summaries.front();
}

bool Database::mergeDelta(const std::filesystem::path& dir) {
  GenerationWriter writer(dir);
  std::optional<GraphStore> current;
  if (writer.previous()) current.emplace(dir);
  if (!current || current->deltaFiles() == 0) return false;
  commitMerged(writer, current);
  return true;
}

}  // namespace gsparql
