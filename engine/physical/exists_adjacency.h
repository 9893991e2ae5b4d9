#pragma once
// FILTER (NOT) EXISTS { ?k <p> ?x } (or { ?x <p> ?k }), and MINUS of it,
// where ?k is the only variable the pattern shares with the input: whether
// a row's ?k has a <p> neighbour is one lookup in the adjacency (degree >
// 0), so the pattern is never evaluated (ExistsJoin and Minus would list
// every <p> edge to index them). The planner picks it
// (planner/exists_join_plan.h).
#include <optional>
#include <string>

#include "engine/physical/operator.h"
#include "storage/adjacency.h"

namespace gsparql::engine {

// Which rows stay: those with a <p> neighbour (Exists), those without
// (NotExists, Minus); they differ on an unbound ?k, which EXISTS leaves
// free (any edge will do) and MINUS keeps (no shared bound variable).
enum class AdjacencyTest { Exists, NotExists, Minus };

class ExistsAdjacency final : public Operator {
 public:
  // `adjacency`: <p>'s, in the direction from ?k; nullptr where the active
  // graph has no <p> (the pattern has no solutions).
  ExistsAdjacency(OperatorPtr input, const std::string& key, const PredicateAdjacency* adjacency,
                  AdjacencyTest test, double rows, double cost);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {input_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override { input_->open(context); }
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  // Whether the pattern has a solution that removes (MINUS) or is
  // compatible with (EXISTS) a row whose ?k is `id`.
  bool matches(ValueId id) const;

  OperatorPtr input_;
  std::string key_;
  size_t keyColumn_;
  const PredicateAdjacency* adjacency_;
  AdjacencyTest test_;
};

}  // namespace gsparql::engine
