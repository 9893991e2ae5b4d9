// Executor::open's default cursor (the GPU executor's): execute()'s table in
// batches small enough for the operators above to stop between them.
#include <doctest/doctest.h>

#include "engine/bgp/executor.h"
#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Returns a table of `rows` rows of `width` columns (row r, column c: r * width + c), whatever the plan.
class TableExecutor final : public engine::Executor {
 public:
  TableExecutor(size_t rows, uint32_t width) : rows_(rows), width_(width) {}
  std::string name() const override { return "table"; }
  engine::IdColumns execute(const engine::BgpPlan&, const engine::BoundBgp&, const GraphStore&,
                            const engine::BgpCall&, engine::ExecutionProfile&) override {
    engine::IdColumns table(width_);
    table.setRows(rows_);
    for (size_t r = 0; r < rows_; ++r) {
      for (uint32_t c = 0; c < width_; ++c) table.column(c).push_back(static_cast<uint32_t>(r * width_ + c));
    }
    return table;
  }

 private:
  size_t rows_;
  uint32_t width_;
};

}  // namespace

TEST_CASE("the default cursor hands a large table out in batches of at most 2^20 rows, in order, and a small one whole") {
  TempDir dir;
  writeFile(dir.path() / "g.nt", "<http://x/a> <http://x/p> <http://x/b> .\n");
  Database::load(dir.path() / "db", {(dir.path() / "g.nt").string()});
  GraphStore store(dir.path() / "db");
  const engine::BgpPlan plan;
  const engine::BoundBgp bgp;
  const engine::BgpCall options;
  constexpr size_t kBatch = size_t{1} << 20;
  for (const auto& [rows, width] : {std::pair<size_t, uint32_t>{5, 3}, {kBatch, 2}, {2 * kBatch + 7, 2}, {3 * kBatch + 1, 0}}) {
    CAPTURE(rows);
    CAPTURE(width);
    TableExecutor executor(rows, width);
    engine::ExecutionProfile profile;
    auto cursor = executor.open(plan, bgp, store, options, profile);
    size_t seen = 0, batches = 0;
    bool inOrder = true;
    while (std::optional<engine::IdColumns> batch = cursor->next()) {
      ++batches;
      CHECK(batch->width() == width);
      CHECK(batch->rows() <= kBatch);
      for (size_t r = 0; r < batch->rows(); ++r) {
        for (uint32_t c = 0; c < width; ++c) inOrder &= batch->at(r, c) == (seen + r) * width + c;
      }
      seen += batch->rows();
    }
    CHECK(inOrder);
    CHECK(seen == rows);
    CHECK(batches == (rows + kBatch - 1) / kBatch);
  }
}
