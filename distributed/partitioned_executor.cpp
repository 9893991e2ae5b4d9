#include "distributed/partitioned_executor.h"

#include <chrono>

#include "distributed/partitioned_component.h"
#include "distributed/vertex_partition.h"
#include "engine/bgp/component_product.h"

namespace gsparql::distributed {
namespace {

class PartitionedExecutor final : public engine::Executor {
 public:
  explicit PartitionedExecutor(const RowExchange& exchange)
      : exchange_(exchange), partition_(exchange.rank(), exchange.ranks()) {}

  std::string name() const override { return "cpu over " + std::to_string(partition_.ranks()) + " MPI ranks"; }

  engine::IdColumns execute(const engine::BgpPlan& plan, const engine::BoundBgp& bgp, const GraphStore& store,
                            const engine::BgpCall& options, engine::ExecutionProfile& profile) override {
    declineUnsupported(plan, bgp, options);
    const auto start = std::chrono::steady_clock::now();
    const uint64_t sentBefore = exchange_.rowsSent(), roundsBefore = exchange_.rounds();
    std::vector<engine::IdRows> tables;
    for (const engine::ComponentPlan& component : plan.components) {
      if (bgp.hasAbsentConstant) {
        tables.emplace_back(bgp.columnCount());
        continue;
      }
      tables.push_back(exchange_.gatherAll(runPartitioned(component, bgp, store, partition_, exchange_)));
      if (tables.back().rows() == 0) break;  // the product is empty (on every rank: they hold the same rows)
    }
    // What went between the ranks, for docs/distributed.md's estimates.
    const uint64_t shipped = exchange_.sumOverRanks(exchange_.rowsSent() - sentBefore);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    profile.note = "partitioned over " + std::to_string(partition_.ranks()) + " MPI ranks: " +
                   std::to_string(exchange_.rounds() - roundsBefore) + " exchanges, " + std::to_string(shipped) +
                   " rows of " + std::to_string(bgp.columnCount()) + " ids shipped, " + std::to_string(ms) + " ms";
    return engine::componentProduct(std::move(tables), bgp, options);
  }

 private:
  static void declineUnsupported(const engine::BgpPlan& plan, const engine::BoundBgp& bgp,
                                 const engine::BgpCall& options) {
    if (options.injective) decline("injective matching");
    for (const engine::ComponentPlan& component : plan.components) {
      if (std::string why = unsupportedReason(component, bgp); !why.empty()) decline(why);
    }
  }

  [[noreturn]] static void decline(const std::string& why) {
    throw engine::ExecutorDeclined("the partitioned run does not take " + why,
                                   engine::ExecutorDeclined::When::BeforeWork);
  }

  const RowExchange& exchange_;
  VertexPartition partition_;
};

}  // namespace

std::unique_ptr<engine::Executor> makePartitionedExecutor(const RowExchange& exchange) {
  return std::make_unique<PartitionedExecutor>(exchange);
}

}  // namespace gsparql::distributed
