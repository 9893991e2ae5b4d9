#pragma once
// Turns a logical plan's algebra tree into a tree of physical operators.
// Each algebra operator becomes its physical operator; on the way the
// planner orders each BGP's joins (JoinOrderer), passes down which variables
// the operators above read (so executors return only those columns), puts
// equality filters, IN lists and VALUES with constants into the BGP they
// restrict, builds the smaller side of a join, and counts a BGP's solutions
// where they are found when a query only counts them.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/physical/operator.h"
#include "engine/planner/exists_join_plan.h"
#include "engine/planner/path_estimate.h"
#include "engine/planner/query_dataset.h"
#include "engine/planner/spatial_join_plan.h"
#include "engine/planner/text_pattern.h"
#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
class PredicateAdjacency;
}

namespace gsparql::engine {

// Variables the operators above read; nullopt: all of them.
using Required = std::optional<std::set<std::string>>;

class Planner {
 public:
  // `injective`: the query matches distinct vertices to distinct terms
  // (--semantics iso), so a count must see every row. `limits`: the query's,
  // which the searches made while planning (paths from a constant) obey.
  // `texts`: the text searches of the tree planned (rewriteTextSearches).
  Planner(const GraphStore& store, const JoinOrderer& orderer, QueryDataset dataset = {}, bool injective = false,
          QueryLimits limits = {}, std::shared_ptr<const TextSearches> texts = std::make_shared<const TextSearches>())
      : store_(store), orderer_(orderer), dataset_(std::move(dataset)), injective_(injective), limits_(limits),
        graph_(dataset_.defaultGraph), searchedPaths_(std::make_shared<SearchedPaths>()), texts_(std::move(texts)) {}

  OperatorPtr plan(const sparql::Op& op, const Required& required) const;

 private:
  // The constants variables of a BGP are limited to: one fixes the variable
  // (an equality filter, one VALUES row); several make it range over them
  // (the ends of a path from a constant, VALUES).
  using Substitution = std::vector<std::pair<std::string, std::vector<std::string>>>;
  // Vertex ids variables of a BGP are limited to (ascending), beside its
  // conditions, which still apply: the literals the text index finds for a
  // CONTAINS (substringCondition).
  using IdLimits = std::vector<std::pair<std::string, std::vector<uint32_t>>>;

  // `conditions`: the FILTER's over it, which may narrow its variables (narrowByValues).
  OperatorPtr planBgp(const sparql::Op& op, const Required& required, const Substitution& fixed,
                      const IdLimits& ids = {}, const std::vector<sparql::Expr>& conditions = {}) const;
  // Limits the variables of `bgp` that a condition of one variable decides
  // to the terms of their domain that pass (value_narrowing.h), where `plan`
  // expects enough rows per term to pay; what it limited, for EXPLAIN
  // (empty: nothing).
  std::string narrowByValues(BoundBgp& bgp, const BgpPlan& plan, const std::vector<sparql::Expr>& conditions) const;
  // A BGP in the merge of several graphs (FROM <a> FROM <b>).
  OperatorPtr planMergedBgp(const sparql::Op& op, const Required& required) const;
  // Whether the active graph is a merge of several graphs of the store.
  bool inMergedGraph() const { return graph_.size() > 1; }
  // The BGP bound to the data's ids, `fixed` variables limited to their constants, and its join order.
  std::pair<BoundBgp, BgpPlan> bindAndOrder(const sparql::Op& op, const Substitution& fixed,
                                            PlanUse use = PlanUse::Rows, const IdLimits& ids = {}) const;
  // The limits the conditions on a BGP's variables allow through the text
  // index: those of few enough literals to pay.
  IdLimits narrowedByText(const sparql::Op& bgp, const std::vector<sparql::Expr>& conditions) const;
  // The union of the BGP with `variable` fixed to each constant in turn (FILTER(?x IN (...))).
  OperatorPtr planBgpPerConstant(const sparql::Op& op, const Required& required, const Substitution& fixed,
                                 const IdLimits& ids, const std::string& variable,
                                 const std::vector<std::string>& constants) const;
  // What `other` (VALUES of one variable, or a path from a constant that
  // reaches few terms) limits a vertex variable of `bgp` to, if anything.
  std::optional<std::pair<std::string, std::vector<std::string>>> constantsFor(const sparql::Op& bgp,
                                                                               const sparql::Op& other) const;
  // The join of operand `bgp` with the operands that fold into it (marked
  // in `used`): constants for its variables, and one alternative of links.
  OperatorPtr planFoldedBgp(const std::vector<const sparql::Op*>& operands, size_t bgp, std::vector<bool>& used,
                            const Required& required) const;
  // FILTER: its (NOT) EXISTS conditions as semi- and anti-joins where
  // existsAsJoin says so, over the other conditions (planConditions).
  OperatorPtr planFilter(const sparql::Op& op, const Required& required) const;
  OperatorPtr planExistsJoin(OperatorPtr input, const ExistsAsJoin& join) const;
  OperatorPtr planExistsAdjacency(OperatorPtr input, const ExistsAsJoin& join) const;
  OperatorPtr planOptionalAdjacency(OperatorPtr input, const OptionalAsAdjacency& optional) const;
  // The adjacency of a one-triple BGP's predicate in the direction from `key`,
  // in the active graph; nullptr where that graph has no such predicate.
  const PredicateAdjacency* adjacencyFrom(const sparql::Op& bgp, const std::string& key) const;
  // `child` under `conditions`: equalities and IN lists folded into a BGP,
  // the rest in a Filter. `narrowing`: conditions of the BGP's variables
  // that hold where conditions above it hold (read through BINDs:
  // throughBinds), which may narrow it but are not applied themselves.
  // `limits`: vertex ids a variable of a BGP `child` is limited to besides
  // (the nearest literals of a k-nearest search); a plan that cannot take
  // them gives every row.
  OperatorPtr planConditions(const sparql::Op& child, const std::vector<sparql::Expr>& conditions,
                             const Required& required, const std::vector<sparql::Expr>& narrowing = {},
                             const IdLimits& limits = {}) const;
  // The sides of a spatial join planned apart and joined through the spatial index.
  OperatorPtr planSpatialJoin(const SpatialJoinSplit& split, const Required& required) const;
  // A BGP under a spatial condition against a constant geometry whose
  // envelope more literals meet than a BGP variable is limited to: the
  // spatial join of the rest with the constant; nullptr where there is none.
  OperatorPtr planConstantSpatialJoin(const sparql::Op& child, const std::vector<sparql::Expr>& conditions,
                                      const Required& required) const;
  OperatorPtr planJoin(const sparql::Op& op, const Required& required) const;
  // The join of `operands` (none of them SERVICE) in the optimizer's order.
  OperatorPtr planJoinOf(std::vector<const sparql::Op*> operands, const Required& required) const;
  // `leftLimits`: for the left side (planLimited); nullptr where it cannot take them.
  OperatorPtr planLeftJoin(const sparql::Op& op, const Required& required, const IdLimits& leftLimits = {}) const;
  // `op` with `limits` on the variables of the BGP every one of its rows
  // extends (through FILTERs without EXISTS, OPTIONALs' left sides and
  // BINDs): its rows whose values there are among the limits' ids; nullptr
  // where the planner cannot limit it.
  OperatorPtr planLimited(const sparql::Op& op, const Required& required, const IdLimits& limits) const;
  // `op` (under `conditions`, which the caller still applies) with the
  // variables of the BGP its rows extend limited to the literals whose
  // envelopes meet a spatial condition's constant, where few enough do
  // (an OPTIONAL beside the BGP, say); nullptr where nothing limits it.
  OperatorPtr planSpatiallyLimited(const sparql::Op& op, const std::vector<sparql::Expr>& conditions,
                                   const Required& required) const;
  OperatorPtr planMinus(const sparql::Op& op, const Required& required) const;
  OperatorPtr planExtend(const sparql::Op& op, const Required& required,
                         const std::vector<sparql::Expr>& conditions = {},
                         const std::vector<sparql::Expr>& narrowing = {}) const;
  // `extend` under `above` (conditions reading its BINDs' variables) and
  // `below` (conditions reading none), each as low as it can go.
  OperatorPtr planBelowLastBind(const sparql::Op& extend, std::vector<sparql::Expr> below,
                                std::vector<sparql::Expr> above, const Required& required,
                                const std::vector<sparql::Expr>& narrowing) const;
  // The score of a text search (an Extend of kTextScoreFunction).
  OperatorPtr planTextScore(const sparql::Op& op, const Required& required,
                            const std::vector<sparql::Expr>& conditions) const;
  OperatorPtr planGroup(const sparql::Op& op) const;
  // ORDER BY; with `wanted`, the rows a LIMIT above keeps, its input narrowed
  // to those that can come first where the spatial index knows (k-nearest).
  OperatorPtr planOrderBy(const sparql::Op& op, const Required& required, std::optional<uint64_t> wanted) const;
  // What a Slice reads: an ORDER BY right below (or under its projection) told the rows wanted.
  OperatorPtr planSliced(const sparql::Op& slice, const Required& required) const;
  // GRAPH: the pattern in the graph named, or the union over the dataset's
  // named graphs of the pattern in each, joined with the graph's name.
  OperatorPtr planGraph(const sparql::Op& op, const Required& required) const;
  OperatorPtr planInGraph(const sparql::Op& pattern, uint32_t graph, const Required& required) const;
  // GROUP BY over one pattern counted from the adjacency's degrees, and
  // counts over a BGP without groups counted by the executors; nullptr where
  // the group is not of their shape.
  OperatorPtr planDegreeCount(const sparql::Op& group) const;
  OperatorPtr planCountOfBgp(const sparql::Op& group) const;
  OperatorPtr planGroupCountOfBgp(const sparql::Op& group) const;
  // The search from a path's constant end, made once per path of the query.
  const std::optional<SearchedPath>& searched(const sparql::Op& path) const;

  // The planner of what GRAPH puts in `graph`: the same query, another
  // active graph.
  Planner(const Planner& outer, GraphMerge graph)
      : store_(outer.store_), orderer_(outer.orderer_), dataset_(outer.dataset_), injective_(outer.injective_),
        limits_(outer.limits_), graph_(std::move(graph)), searchedPaths_(outer.searchedPaths_), texts_(outer.texts_) {}

  // The searches from paths' constant ends, by path and graph: made once per
  // query, shared by the planners of its graphs (a cache, hence mutable).
  using SearchedPaths = std::map<std::pair<const sparql::Op*, GraphMerge>, std::optional<SearchedPath>>;

  const GraphStore& store_;
  const JoinOrderer& orderer_;
  const QueryDataset dataset_;
  const bool injective_;
  const QueryLimits limits_;
  const GraphMerge graph_;  // the active graph (section 13.3) of what is planned
  std::shared_ptr<SearchedPaths> searchedPaths_;
  std::shared_ptr<const TextSearches> texts_;
};

// The text of an expression for EXPLAIN (SPARQL syntax).
std::string expressionText(const sparql::Expr& e);

}  // namespace gsparql::engine
