#include "engine/physical/values_scan.h"

namespace gsparql::engine {

ValuesScan::ValuesScan(sparql::Table table)
    : Operator(table.vars, static_cast<double>(table.rows.size()), static_cast<double>(table.rows.size())),
      data_(std::move(table)) {}

std::string ValuesScan::describe() const { return "Values, " + std::to_string(data_.rows.size()) + " row(s)"; }

void ValuesScan::openImpl(ExecutionContext& context) {
  Table table(data_.vars.size());
  std::vector<ValueId> row(data_.vars.size());
  for (const auto& cells : data_.rows) {
    for (size_t c = 0; c < cells.size(); ++c) row[c] = cells[c] ? context.terms.idOf(*cells[c]) : kUndefined;
    table.appendRow(row);
  }
  cursor_.reset(std::move(table));
}

std::optional<Table> ValuesScan::nextImpl(ExecutionContext&) { return cursor_.next(); }

}  // namespace gsparql::engine
