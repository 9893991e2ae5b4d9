#pragma once
// Matchers for physical operator trees, in the style of QLever's
// test/QueryPlannerTestHelpers.h: `h::HashJoin(h::BgpScan(), h::Filter(h::Any()))`
// describes a tree by the type of each operator (its C++ class), its children
// (recursively, in order) and, through the `with...` methods, selected
// properties such as its variables or the text EXPLAIN shows for it.
//
//   CHECK_PLAN(plan, h::Project({"x"}, h::BgpScan().withVariables({"x"})));
//
// explain() returns "" on a match, otherwise the path to the first mismatch
// and what was expected there; CHECK_PLAN adds the whole tree to the report.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/physical/operator.h"

namespace gsparql::test::h {

class Matcher {
 public:
  // nullopt when the operator has the property, otherwise why not.
  using Check = std::function<std::optional<std::string>(const engine::Operator&)>;

  Matcher(std::string name, Check type, std::optional<std::vector<Matcher>> children);

  // "" when `op` matches, otherwise where and why it does not.
  std::string explain(const engine::Operator& op, const std::string& path = "root") const;
  bool matches(const engine::Operator& op) const { return explain(op).empty(); }

  // The operator's variables, exactly and in order.
  Matcher withVariables(std::vector<std::string> variables) const;
  // The operator's variables as a set.
  Matcher withVariableSet(std::vector<std::string> variables) const;
  // describe() contains `text`.
  Matcher describing(std::string text) const;
  // describe() does not contain `text`.
  Matcher notDescribing(std::string text) const;
  // Any other property.
  Matcher where(std::string what, std::function<bool(const engine::Operator&)> test) const;

  // BgpScan and BgpCount only: the number of triple patterns.
  Matcher triplePatterns(size_t count) const;
  // BgpScan and BgpCount only: the join order, the vertices each component
  // binds step by step (variables by name, constants as "const"), as
  // QLever's tests pin join trees.
  Matcher joinOrder(std::vector<std::vector<std::string>> components) const;
  // BgpCount only: the steps its plan counts as products (bgp/counted_leaves.h).
  Matcher countedLeaves(size_t steps) const;
  // BgpScan only: `variable` was made a constant (an equality filter folded
  // into the scan), with dictionary id `id` when given.
  Matcher fixing(std::string variable, std::optional<uint32_t> id = std::nullopt) const;
  // A BgpScan whose variable ranges over exactly the vertex ids `ids`.
  Matcher limiting(std::string variable, std::vector<uint32_t> ids) const;

  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::vector<std::pair<std::string, Check>> checks_;  // the type check first
  std::optional<std::vector<Matcher>> children_;      // nullopt: any children
};

// Any operator, any subtree.
Matcher Any();
Matcher BgpScan();
Matcher BgpCount();
Matcher PathScan();
Matcher Values();
// GROUP BY ?x with COUNT over one pattern, from the adjacency's degrees.
Matcher DegreeCount();
// GROUP BY ?v with COUNT over a BGP, counted per vertex by its executor.
Matcher BgpGroupCount();
Matcher HashJoin(Matcher left, Matcher right);
Matcher LeftJoin(Matcher left, Matcher right);
Matcher Minus(Matcher left, Matcher right);
// FILTER (NOT) EXISTS as a join: the input, then the pattern.
Matcher ExistsJoin(Matcher input, Matcher pattern);
// FILTER (NOT) EXISTS { ?k <p> ?x } answered by ?k's degree.
Matcher ExistsAdjacency(Matcher input);
Matcher OptionalAdjacency(Matcher input);
// A chain of UNIONs is one operator: its inputs in order.
Matcher Union(std::vector<Matcher> inputs);
Matcher Filter(Matcher child);
Matcher Extend(Matcher child);
Matcher GroupBy(Matcher child);
Matcher OrderBy(Matcher child);
Matcher Distinct(Matcher child);
Matcher Project(std::vector<std::string> variables, Matcher child);
// Slice with its offset and limit (nullopt: none).
Matcher Slice(uint64_t offset, std::optional<uint64_t> limit, Matcher child);

// The tree as EXPLAIN prints it, without numbers: describe() and the
// variables of each operator, indented by depth.
std::string treeText(const engine::Operator& root);

}  // namespace gsparql::test::h

namespace gsparql::test::h {
// The operator of CHECK_PLAN's argument: an Operator, or a pointer to one.
inline const engine::Operator& rootOf(const engine::Operator& op) { return op; }
template <typename Pointer>
const engine::Operator& rootOf(const Pointer& p) {
  return *p;
}
}  // namespace gsparql::test::h

// Checks `plan` (an Operator, or a smart pointer to one, kept alive for the
// check) against `matcher`; reports the mismatch and the tree.
#define CHECK_PLAN(plan, matcher)                                                                      \
  do {                                                                                                 \
    const auto& checkPlanHolder_ = (plan);                                                             \
    const ::gsparql::engine::Operator& checkPlanRoot_ = ::gsparql::test::h::rootOf(checkPlanHolder_);  \
    const std::string checkPlanWhy_ = (matcher).explain(checkPlanRoot_);                               \
    INFO("plan:\n" << ::gsparql::test::h::treeText(checkPlanRoot_) << "mismatch: " << checkPlanWhy_);  \
    CHECK(checkPlanWhy_.empty());                                                                      \
  } while (false)
