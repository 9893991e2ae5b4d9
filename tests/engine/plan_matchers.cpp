#include "plan_matchers.h"

#include <algorithm>
#include <typeinfo>

#include "engine/physical/bgp_count.h"
#include "engine/physical/bgp_group_count.h"
#include "engine/physical/bgp_scan.h"
#include "engine/physical/distinct.h"
#include "engine/physical/exists_adjacency.h"
#include "engine/physical/exists_join.h"
#include "engine/physical/extend.h"
#include "engine/physical/filter.h"
#include "engine/physical/degree_count.h"
#include "engine/physical/group_by.h"
#include "engine/physical/hash_join.h"
#include "engine/physical/left_join.h"
#include "engine/physical/minus.h"
#include "engine/physical/optional_adjacency.h"
#include "engine/physical/order_by.h"
#include "engine/physical/path_scan.h"
#include "engine/physical/project.h"
#include "engine/physical/slice.h"
#include "engine/physical/union_all.h"
#include "engine/physical/values_scan.h"

namespace gsparql::test::h {
namespace {

using engine::Operator;

std::string listed(const std::vector<std::string>& names) {
  std::string text = "(";
  for (const auto& n : names) text += (text.size() > 1 ? " ?" : "?") + n;
  return text + ")";
}

template <typename T>
Matcher::Check isA(std::string name) {
  return [name](const Operator& op) -> std::optional<std::string> {
    if (dynamic_cast<const T*>(&op) != nullptr) return std::nullopt;
    return "expected " + name + ", found \"" + op.describe() + "\"";
  };
}

template <typename T>
Matcher node(std::string name, std::optional<std::vector<Matcher>> children) {
  return Matcher(name, isA<T>(name), std::move(children));
}

// A BGP's vertices in the order its plan binds them, per component.
std::vector<std::vector<std::string>> joinOrderOf(const engine::BgpLeaf& leaf) {
  std::vector<std::vector<std::string>> components;
  for (const auto& component : leaf.plan().components) {
    std::vector<std::string>& order = components.emplace_back();
    for (const engine::PlanStep& step : component.steps) {
      const engine::BoundVertex& v = leaf.bgp().vertices[step.vertex];
      order.push_back(v.isVariable ? v.name : "const");
    }
  }
  return components;
}

void treeLines(const Operator& op, int depth, std::string& out) {
  out += std::string(static_cast<size_t>(depth) * 2, ' ') + op.describe() + "  " + listed(op.variables());
  if (const auto* leaf = dynamic_cast<const engine::BgpLeaf*>(&op)) {
    out += "  join order";
    for (const auto& order : joinOrderOf(*leaf)) out += " " + listed(order);
  }
  out += "\n";
  for (const Operator* child : op.children()) treeLines(*child, depth + 1, out);
}

}  // namespace

Matcher::Matcher(std::string name, Check type, std::optional<std::vector<Matcher>> children)
    : name_(std::move(name)), children_(std::move(children)) {
  checks_.emplace_back("type", std::move(type));
}

std::string Matcher::explain(const Operator& op, const std::string& path) const {
  for (const auto& [what, check] : checks_) {
    if (auto why = check(op)) return path + ": " + *why;
  }
  if (!children_) return "";
  const auto children = op.children();
  if (children.size() != children_->size()) {
    return path + ": expected " + std::to_string(children_->size()) + " children of " + name_ + ", found " +
           std::to_string(children.size());
  }
  for (size_t i = 0; i < children.size(); ++i) {
    std::string why = (*children_)[i].explain(*children[i], path + " > " + name_ + "[" + std::to_string(i) + "]");
    if (!why.empty()) return why;
  }
  return "";
}

Matcher Matcher::where(std::string what, std::function<bool(const Operator&)> test) const {
  Matcher m = *this;
  m.checks_.emplace_back(what, [what, test](const Operator& op) -> std::optional<std::string> {
    if (test(op)) return std::nullopt;
    return "\"" + op.describe() + "\" " + listed(op.variables()) + " fails: " + what;
  });
  return m;
}

Matcher Matcher::withVariables(std::vector<std::string> variables) const {
  return where("variables are " + listed(variables),
               [variables](const Operator& op) { return op.variables() == variables; });
}

Matcher Matcher::withVariableSet(std::vector<std::string> variables) const {
  std::sort(variables.begin(), variables.end());
  return where("variables are the set " + listed(variables), [variables](const Operator& op) {
    auto actual = op.variables();
    std::sort(actual.begin(), actual.end());
    return actual == variables;
  });
}

Matcher Matcher::describing(std::string text) const {
  return where("describe() contains \"" + text + "\"",
               [text](const Operator& op) { return op.describe().find(text) != std::string::npos; });
}

Matcher Matcher::notDescribing(std::string text) const {
  return where("describe() does not contain \"" + text + "\"",
               [text](const Operator& op) { return op.describe().find(text) == std::string::npos; });
}

Matcher Matcher::triplePatterns(size_t count) const {
  return where(std::to_string(count) + " triple pattern(s)", [count](const Operator& op) {
    const auto* leaf = dynamic_cast<const engine::BgpLeaf*>(&op);
    return leaf != nullptr && leaf->bgp().edges.size() == count;
  });
}

Matcher Matcher::joinOrder(std::vector<std::vector<std::string>> components) const {
  std::string what = "join order";
  for (const auto& order : components) what += " " + listed(order);
  return where(what, [components](const Operator& op) {
    const auto* leaf = dynamic_cast<const engine::BgpLeaf*>(&op);
    return leaf != nullptr && joinOrderOf(*leaf) == components;
  });
}

Matcher Matcher::countedLeaves(size_t steps) const {
  return where(std::to_string(steps) + " step(s) counted as products", [steps](const Operator& op) {
    const auto* count = dynamic_cast<const engine::BgpCount*>(&op);
    if (count == nullptr) return false;
    size_t counted = 0;
    for (const auto& component : count->plan().components) counted += component.countedLeaves();
    return counted == steps;
  });
}

Matcher Matcher::fixing(std::string variable, std::optional<uint32_t> id) const {
  std::string what = "?" + variable + " is a constant of the scan";
  if (id) what += " with id " + std::to_string(*id);
  return where(what, [variable, id](const Operator& op) {
    const auto* scan = dynamic_cast<const engine::BgpScan*>(&op);
    if (scan == nullptr) return false;
    return std::any_of(scan->bgp().vertices.begin(), scan->bgp().vertices.end(), [&](const auto& v) {
      return !v.isVariable && v.name == variable && (!id || v.id == *id);
    });
  });
}

Matcher Matcher::limiting(std::string variable, std::vector<uint32_t> ids) const {
  std::sort(ids.begin(), ids.end());
  std::string what = "?" + variable + " ranges over the ids";
  for (uint32_t id : ids) what += " " + std::to_string(id);
  return where(what, [variable, ids](const Operator& op) {
    const auto* scan = dynamic_cast<const engine::BgpScan*>(&op);
    if (scan == nullptr) return false;
    return std::any_of(scan->bgp().vertices.begin(), scan->bgp().vertices.end(), [&](const auto& v) {
      return v.isVariable && v.name == variable && v.constants == ids;
    });
  });
}

Matcher Any() {
  return Matcher("Any", [](const Operator&) { return std::nullopt; }, std::nullopt);
}
Matcher BgpScan() { return node<engine::BgpScan>("BgpScan", std::vector<Matcher>{}); }
Matcher BgpCount() { return node<engine::BgpCount>("BgpCount", std::vector<Matcher>{}); }
Matcher PathScan() { return node<engine::PathScan>("PathScan", std::vector<Matcher>{}); }
Matcher Values() { return node<engine::ValuesScan>("Values", std::vector<Matcher>{}); }
Matcher DegreeCount() { return node<engine::DegreeCount>("DegreeCount", std::vector<Matcher>{}); }
Matcher BgpGroupCount() { return node<engine::BgpGroupCount>("BgpGroupCount", std::vector<Matcher>{}); }
Matcher HashJoin(Matcher left, Matcher right) {
  return node<engine::HashJoin>("HashJoin", std::vector<Matcher>{std::move(left), std::move(right)});
}
Matcher LeftJoin(Matcher left, Matcher right) {
  return node<engine::LeftJoin>("LeftJoin", std::vector<Matcher>{std::move(left), std::move(right)});
}
Matcher OptionalAdjacency(Matcher input) {
  return node<engine::OptionalAdjacency>("OptionalAdjacency", std::vector<Matcher>{std::move(input)});
}
Matcher Minus(Matcher left, Matcher right) {
  return node<engine::Minus>("Minus", std::vector<Matcher>{std::move(left), std::move(right)});
}
Matcher ExistsJoin(Matcher input, Matcher pattern) {
  return node<engine::ExistsJoin>("ExistsJoin", std::vector<Matcher>{std::move(input), std::move(pattern)});
}
Matcher ExistsAdjacency(Matcher input) {
  return node<engine::ExistsAdjacency>("ExistsAdjacency", std::vector<Matcher>{std::move(input)});
}
Matcher Union(std::vector<Matcher> inputs) { return node<engine::UnionAll>("Union", std::move(inputs)); }
Matcher Filter(Matcher child) { return node<engine::Filter>("Filter", std::vector<Matcher>{std::move(child)}); }
Matcher Extend(Matcher child) { return node<engine::Extend>("Extend", std::vector<Matcher>{std::move(child)}); }
Matcher GroupBy(Matcher child) { return node<engine::GroupBy>("GroupBy", std::vector<Matcher>{std::move(child)}); }
Matcher OrderBy(Matcher child) { return node<engine::OrderBy>("OrderBy", std::vector<Matcher>{std::move(child)}); }
Matcher Distinct(Matcher child) {
  return node<engine::Distinct>("Distinct", std::vector<Matcher>{std::move(child)}).notDescribing("Reduced");
}
Matcher Project(std::vector<std::string> variables, Matcher child) {
  return node<engine::Project>("Project", std::vector<Matcher>{std::move(child)}).withVariables(std::move(variables));
}
Matcher Slice(uint64_t offset, std::optional<uint64_t> limit, Matcher child) {
  std::string text = "Slice";
  if (offset > 0) text += " offset " + std::to_string(offset);
  if (limit) text += " limit " + std::to_string(*limit);
  return node<engine::Slice>("Slice", std::vector<Matcher>{std::move(child)})
      .where("it is \"" + text + "\"", [text](const Operator& op) { return op.describe() == text; });
}

std::string treeText(const Operator& root) {
  std::string out;
  treeLines(root, 0, out);
  return out;
}

}  // namespace gsparql::test::h
