#include "engine/planner/exists_probe.h"

#include <algorithm>

#include "engine/logical/logical_plan.h"

namespace gsparql::engine {
namespace {

using sparql::Op;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void collectExpressionVariables(const Op& op, std::vector<std::string>& out) {
  for (const auto& e : op.exprs) expressionVariables(e, out);
  for (const auto& b : op.bindings) expressionVariables(b.expr, out);
  for (const auto& b : op.aggregates) expressionVariables(b.expr, out);
  for (const auto& k : op.order) expressionVariables(k.expr, out);
  for (const auto& child : op.children) collectExpressionVariables(*child, out);
}

sparql::Expr substitute(sparql::Expr e, const sparql::Table& values) {
  if (e.kind == sparql::Expr::Kind::Term && e.term.kind == sparql::Term::Kind::Variable) {
    for (size_t i = 0; i < values.vars.size(); ++i) {
      if (values.vars[i] == e.term.value && values.rows[0][i]) e.term = sparql::Term::constant(*values.rows[0][i]);
    }
  }
  for (auto& a : e.args) a = substitute(std::move(a), values);
  return e;
}

// The pattern with the values put into its expressions; its triple patterns
// are restricted by joining with the values instead.
sparql::OpPtr substituteExpressions(const Op& op, const sparql::Table& values) {
  Op copy = op;
  for (auto& e : copy.exprs) e = substitute(std::move(e), values);
  for (auto& b : copy.bindings) b.expr = substitute(std::move(b.expr), values);
  for (auto& child : copy.children) child = substituteExpressions(*child, values);
  return std::make_shared<const Op>(std::move(copy));
}

}  // namespace

const ExistsProbe::Solutions& ExistsProbe::solutionsOf(const Op& pattern, const std::vector<std::string>& outer,
                                                       ExecutionContext& context) {
  auto [it, added] = solutions_.try_emplace({&pattern, outer});
  Solutions& s = it->second;
  if (!added) return s;
  OperatorPtr op = planner_.plan(pattern, std::nullopt);
  s.variables = op->variables();
  std::vector<size_t> keyColumns;
  for (size_t c = 0; c < s.variables.size(); ++c) {
    if (contains(outer, s.variables[c])) {
      keyColumns.push_back(c);
      s.keyVariables.push_back(s.variables[c]);
    }
  }
  // Sharing no variable, every solution is compatible with every row: whether there is one decides.
  s.rows = keyColumns.empty() ? runToFirstRow(*op, context) : runToEnd(*op, context);
  s.index = std::make_unique<CompatibleRows>(s.rows, keyColumns);
  return s;
}

bool ExistsProbe::runSubstituted(const Op& pattern, const sparql::Table& values, ExecutionContext& context) {
  auto key = std::make_pair(&pattern, values.rows[0]);
  if (auto it = substituted_.find(key); it != substituted_.end()) return it->second;
  Op valuesOp;
  valuesOp.kind = Op::Kind::Values;
  valuesOp.table = values;
  Op join;
  join.kind = Op::Kind::Join;
  join.children = {std::make_shared<const Op>(std::move(valuesOp)), substituteExpressions(pattern, values)};
  OperatorPtr op = planner_.plan(join, std::set<std::string>{});
  const bool found = runToFirstRow(*op, context).rows > 0;  // one row decides
  substituted_.emplace(std::move(key), found);
  return found;
}

bool ExistsProbe::operator()(const Op& pattern, const std::vector<std::string>& variables,
                             const expr::Solution& solution, ExecutionContext& context) {
  std::vector<std::string> inExpressions;
  collectExpressionVariables(pattern, inExpressions);
  const auto inPattern = patternVariables(pattern);
  sparql::Table values;
  values.rows.emplace_back();
  bool readInExpressions = false;
  for (size_t slot = 0; slot < variables.size(); ++slot) {
    const auto term = solution.term(slot);
    if (!term || (!contains(inPattern, variables[slot]) && !contains(inExpressions, variables[slot]))) continue;
    readInExpressions = readInExpressions || contains(inExpressions, variables[slot]);
    values.vars.push_back(variables[slot]);
    values.rows[0].emplace_back(std::string(*term));
  }
  if (readInExpressions) return runSubstituted(pattern, values, context);
  const Solutions& s = solutionsOf(pattern, variables, context);
  std::vector<ValueId> key;
  for (const auto& name : s.keyVariables) {
    auto it = std::find(values.vars.begin(), values.vars.end(), name);
    key.push_back(it == values.vars.end() ? kUndefined : context.terms.idOf(*values.rows[0][it - values.vars.begin()]));
  }
  bool found = false;
  s.index->forEachCompatible(key, [&](uint32_t) { found = true; });
  return found;
}

}  // namespace gsparql::engine
