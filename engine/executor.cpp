#include "engine/executor.h"

namespace gsparql::engine {
namespace {

// execute()'s whole table as the one batch, computed at the first next().
class WholeTableCursor final : public RowCursor {
 public:
  WholeTableCursor(Executor& executor, const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                   const ExecutionOptions& options, ExecutionProfile& profile)
      : executor_(executor), plan_(plan), bgp_(bgp), store_(store), options_(options), profile_(profile) {}

  std::optional<IdTable> next() override {
    if (done_) return std::nullopt;
    done_ = true;
    return executor_.execute(plan_, bgp_, store_, options_, profile_);
  }

 private:
  Executor& executor_;
  const BgpPlan& plan_;
  const BoundBgp& bgp_;
  const GraphStore& store_;
  const ExecutionOptions& options_;
  ExecutionProfile& profile_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<RowCursor> Executor::open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                          const ExecutionOptions& options, ExecutionProfile& profile) {
  return std::make_unique<WholeTableCursor>(*this, plan, bgp, store, options, profile);
}

}  // namespace gsparql::engine
