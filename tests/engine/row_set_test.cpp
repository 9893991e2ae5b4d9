// RowSet (DISTINCT's memory) against std::set on random rows with many
// repeats, through its growth, for the widths DISTINCT meets.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <vector>

#include "engine/physical/row_set.h"

using gsparql::engine::RowSet;
using gsparql::engine::ValueId;
using gsparql::engine::ValueSpace;

TEST_CASE("RowSet keeps each row once, as std::set does, for rows of 0 to 3 ids") {
  std::mt19937_64 random(20261123);
  for (size_t width : {0, 1, 2, 3}) {
    CAPTURE(width);
    RowSet rows(width);
    std::set<std::vector<ValueId>> reference;
    // One-id rows: enough distinct ones to move the vertices to bits on the way.
    const int inserts = width == 1 ? 400000 : 50000;
    for (int i = 0; i < inserts; ++i) {
      std::vector<ValueId> row(width);
      // Few values, many repeats; vertex ids (one-id rows keep them as bits,
      // growing) beside ids of the other spaces.
      for (auto& id : row) {
        const auto space = random() % 2 ? ValueSpace::Vertex : ValueSpace::Local;
        id = gsparql::engine::makeValueId(space, static_cast<uint32_t>(random() % (i < 25000 ? 64 : 1000000)));
      }
      CHECK(rows.insert(row) == reference.insert(row).second);
    }
    rows.clear();
    const std::vector<ValueId> row(width, 7);
    CHECK(rows.insert(row));
    CHECK_FALSE(rows.insert(row));
  }
}
