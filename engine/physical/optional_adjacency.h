#pragma once
// OPTIONAL { ?k <p> ?x } (or { ?x <p> ?k }), where ?k is the only variable
// the pattern shares with the input and ?x a new one: a row's matches are
// its ?k's <p> neighbours, read from the adjacency, so the pattern is never
// listed and indexed (LeftJoin lists every <p> edge to index it). A row
// whose ?k has none is kept alone, ?x unbound; a row whose ?k is unbound is
// compatible with every edge and meets each, as in LeftJoin. The planner
// picks it (planner/exists_join_plan.h, optionalByAdjacency).
#include <optional>
#include <string>

#include "engine/physical/operator.h"
#include "storage/adjacency.h"

namespace gsparql::engine {

class OptionalAdjacency final : public Operator {
 public:
  // `adjacency`: <p>'s, in the direction from ?k; nullptr where the active
  // graph has no <p> (the pattern has no solutions). `added`: ?x's name.
  OptionalAdjacency(OperatorPtr input, const std::string& key, const std::string& added,
                    const PredicateAdjacency* adjacency, double rows, double cost);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {input_.get()}; }

 private:
  // What a batch's rows yield: the input row of each output row, and its ?k and ?x.
  struct Matches {
    std::vector<size_t> rows;
    std::vector<ValueId> keys, added;
    bool keysChanged = false;  // some ?k was unbound, and is bound by its match
  };
  void openImpl(ExecutionContext& context) override { input_->open(context); }
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  void matchRows(const Table& batch, size_t begin, size_t end, Matches& matches, ExecutionContext& context) const;
  void match(size_t row, ValueId key, Matches& matches) const;
  void matchEveryEdge(size_t row, Matches& matches) const;

  OperatorPtr input_;
  std::string key_;
  size_t keyColumn_;
  const PredicateAdjacency* adjacency_;
};

}  // namespace gsparql::engine
