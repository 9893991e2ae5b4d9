// Columns keep vertex ids narrow until another kind of value arrives; what
// they hold must not depend on the representation.
#include <doctest/doctest.h>

#include "engine/bgp/id_columns.h"
#include "engine/physical/table.h"

using namespace gsparql::engine;

namespace {

ValueId vertex(uint32_t v) { return makeValueId(ValueSpace::Vertex, v); }
ValueId local(uint32_t v) { return makeValueId(ValueSpace::Local, v); }

std::vector<ValueId> cells(const Column& column) {
  std::vector<ValueId> out;
  for (size_t r = 0; r < column.size(); ++r) out.push_back(column[r]);
  return out;
}

}  // namespace

TEST_CASE("a column of vertices stays narrow and widens once at the first other value") {
  Column column = Column::ofVertices({7, 3});
  CHECK(column.holdsOnlyVertices());
  column.push_back(vertex(9));
  CHECK(column.holdsOnlyVertices());
  CHECK(column.vertices().size() == 3);
  column.push_back(kUndefined);
  column.push_back(local(1));
  CHECK_FALSE(column.holdsOnlyVertices());
  CHECK(column.vertices().empty());
  CHECK(cells(column) == std::vector<ValueId>{vertex(7), vertex(3), vertex(9), kUndefined, local(1)});
}

TEST_CASE("assign, append and slices give the same cells whatever the columns hold") {
  Column narrow;
  narrow.assign(2, vertex(5));
  CHECK(narrow.holdsOnlyVertices());
  Column wide;
  wide.assign(2, kUndefined);
  CHECK_FALSE(wide.holdsOnlyVertices());

  Column a = narrow;
  a.append(wide);
  CHECK(cells(a) == std::vector<ValueId>{vertex(5), vertex(5), kUndefined, kUndefined});
  Column b = wide;
  b.append(narrow);
  CHECK(cells(b) == std::vector<ValueId>{kUndefined, kUndefined, vertex(5), vertex(5)});
  Column c = narrow;
  c.appendRange(Column::ofVertices({1, 2, 3}), 1, 3);
  CHECK(c.holdsOnlyVertices());
  CHECK(cells(c) == std::vector<ValueId>{vertex(5), vertex(5), vertex(2), vertex(3)});

  Table table(2);
  table.appendRow(std::vector<ValueId>{vertex(1), local(0)});
  table.appendRow(std::vector<ValueId>{kUndefined, vertex(2)});
  table.appendRow(std::vector<ValueId>{vertex(3), vertex(4)});
  const Table middle = sliceRows(table, 1, 3);
  CHECK(cells(middle.columns[0]) == std::vector<ValueId>{kUndefined, vertex(3)});
  CHECK(cells(middle.columns[1]) == std::vector<ValueId>{vertex(2), vertex(4)});
  const std::vector<size_t> order{2, 0};
  const Table gathered = gatherRows(table, order);
  CHECK(gathered.columns[0].holdsOnlyVertices());
  CHECK(cells(gathered.columns[0]) == std::vector<ValueId>{vertex(3), vertex(1)});
  CHECK(cells(gathered.columns[1]) == std::vector<ValueId>{vertex(4), local(0)});
}

TEST_CASE("executor results: rows become the selected columns in one pass, and back") {
  gsparql::engine::IdRows rows(3);
  for (uint32_t r = 0; r < 4; ++r) rows.appendRow(std::vector<uint32_t>{r, 10 + r, 20 + r});
  const gsparql::engine::IdColumns selected = gsparql::engine::toColumns(rows, std::vector<uint32_t>{2, 0});
  CHECK(selected.width() == 2);
  CHECK(selected.rows() == 4);
  CHECK(selected.column(0) == std::vector<uint32_t>{20, 21, 22, 23});
  CHECK(selected.column(1) == std::vector<uint32_t>{0, 1, 2, 3});
  const gsparql::engine::IdColumns all = gsparql::engine::toColumns(rows);
  CHECK(gsparql::engine::toRows(all).data() == rows.data());
  gsparql::engine::IdColumns tail = all.slice(1, 3);
  CHECK(tail.rows() == 2);
  CHECK(tail.column(1) == std::vector<uint32_t>{11, 12});
  tail.append(all.slice(3, 4));
  CHECK(tail.rows() == 3);
  CHECK(tail.column(2) == std::vector<uint32_t>{21, 22, 23});
  // No columns: the rows are still counted.
  gsparql::engine::IdRows none(0);
  none.setZeroWidthRows(5);
  CHECK(gsparql::engine::toColumns(none).rows() == 5);
  CHECK(gsparql::engine::toRows(gsparql::engine::toColumns(none)).rows() == 5);
}
