#include "engine/physical/project.h"

#include <algorithm>

namespace gsparql::engine {

Project::Project(OperatorPtr child, std::vector<std::string> variables)
    : Operator(std::move(variables), child->estimatedRows(), child->estimatedCost()), child_(std::move(child)) {
  for (const auto& v : this->variables()) sources_.push_back(child_->columnOf(v));
}

std::string Project::describe() const {
  std::string names;
  for (const auto& v : variables()) names += " ?" + v;
  return "Project" + (names.empty() ? std::string(" (no variables)") : names);
}

std::optional<Table> Project::nextImpl(ExecutionContext& context) {
  auto batch = child_->next(context);
  if (!batch) return std::nullopt;
  Table out(variables().size());
  out.rows = batch->rows;
  for (size_t c = 0; c < sources_.size(); ++c) {
    if (sources_[c]) {
      // A column read again later (a variable projected twice) is copied, the last read moves it.
      const bool readAgain = std::find(sources_.begin() + static_cast<std::ptrdiff_t>(c) + 1, sources_.end(),
                                       sources_[c]) != sources_.end();
      out.columns[c] = readAgain ? batch->columns[*sources_[c]] : std::move(batch->columns[*sources_[c]]);
    } else {
      out.columns[c].assign(batch->rows, kUndefined);
    }
  }
  return out;
}

}  // namespace gsparql::engine
