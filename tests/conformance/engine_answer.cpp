#include "engine_answer.h"

#include <set>

namespace gsparql::conformance {

using gsparql::sparql::Op;

ResultSet toResultSet(const gsparql::QueryResult& r) {
  ResultSet out;
  out.isBoolean = r.isBoolean();
  if (out.isBoolean) {
    out.boolean = r.booleanValue();
    return out;
  }
  out.isGraph = r.isGraph();
  if (out.isGraph) {
    r.forEachTriple([&](std::string_view s, std::string_view p, std::string_view o) {
      out.triples.insert({canonicalTerm(s), canonicalTerm(p), canonicalTerm(o)});
    });
    return out;
  }
  out.variables = r.variables();
  for (const auto& row : r.rows()) {
    Solution s;
    for (size_t i = 0; i < row.size() && i < out.variables.size(); ++i)
      if (row[i]) s[out.variables[i]] = canonicalTerm(*row[i]);
    out.solutions.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> orderKeys(const gsparql::sparql::Query& q) {
  const Op* op = q.pattern.get();
  std::set<std::string> projected;
  bool projectAll = true;
  while (op) {
    if (op->kind == Op::Kind::Project) {
      projectAll = false;
      projected.insert(op->vars.begin(), op->vars.end());
    } else if (op->kind == Op::Kind::OrderBy) {
      std::vector<std::string> keys;
      for (const auto& key : op->order) {
        if (key.expr.kind != gsparql::sparql::Expr::Kind::Term ||
            key.expr.term.kind != gsparql::sparql::Term::Kind::Variable)
          break;
        if (!projectAll && !projected.count(key.expr.term.value)) break;
        keys.push_back(key.expr.term.value);
      }
      return keys;
    } else if (op->kind != Op::Kind::Slice && op->kind != Op::Kind::Distinct && op->kind != Op::Kind::Reduced) {
      return {};
    }
    op = op->children.empty() ? nullptr : op->children[0].get();
  }
  return {};
}

}  // namespace gsparql::conformance
