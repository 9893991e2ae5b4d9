#include "engine/physical/text_score.h"

#include <algorithm>
#include <cstdio>

namespace gsparql::engine {

TextScore::TextScore(OperatorPtr child, const std::string& literal, const std::string& score,
                     std::vector<uint32_t> literals, std::vector<double> scores)
    : Operator([&] {
        std::vector<std::string> variables = child->variables();
        variables.push_back(score);
        return variables;
      }(),
               child->estimatedRows(), child->estimatedCost() + child->estimatedRows()),
      child_(std::move(child)),
      literalColumn_(child_->columnOf(literal).value()),  // the planner reads it below
      literals_(std::move(literals)),
      scores_(std::move(scores)) {}

std::string TextScore::describe() const {
  return "TextScore ?" + variables().back() + " of ?" + variables()[literalColumn_];
}

void TextScore::openImpl(ExecutionContext& context) {
  scoreIds_.clear();
  child_->open(context);
}

ValueId TextScore::scoreOf(ValueId literal, ExecutionContext& context) {
  auto [it, added] = scoreIds_.try_emplace(literal, kUndefined);
  if (!added) return it->second;
  const auto at = std::lower_bound(literals_.begin(), literals_.end(), indexOf(literal));
  // Only the search's literals reach here (the BGP ranges over them); anything else stays unbound.
  if (spaceOf(literal) != ValueSpace::Vertex || at == literals_.end() || *at != indexOf(literal)) return kUndefined;
  char text[64];
  std::snprintf(text, sizeof text, "\"%.6g\"^^<http://www.w3.org/2001/XMLSchema#float>",
                scores_[static_cast<size_t>(at - literals_.begin())]);
  return it->second = context.terms.idOf(text);
}

std::optional<Table> TextScore::nextImpl(ExecutionContext& context) {
  auto batch = child_->next(context);
  if (!batch) return std::nullopt;
  std::vector<ValueId> values(batch->rows);
  const Column& literals = batch->columns[literalColumn_];
  for (size_t row = 0; row < batch->rows; ++row) values[row] = scoreOf(literals[row], context);
  batch->columns.emplace_back(std::move(values));
  return batch;
}

}  // namespace gsparql::engine
