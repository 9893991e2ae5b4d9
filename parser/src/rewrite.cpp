#include "parser/rewrite.h"

#include <memory>

#include "parser/parse.h"

namespace gsparql::sparql {

std::string termText(const Term& t) { return t.kind == Term::Kind::Variable ? "?" + t.value : t.value; }

OpPtr distinctMatches(const TriplePattern& pattern, const std::string& body) {
  std::string vars;
  for (const Term* end : {&pattern.subject, &pattern.predicate, &pattern.object}) {
    const std::string name = termText(*end) + " ";
    if (end->kind == Term::Kind::Variable && vars.find(name) == std::string::npos) vars += name;
  }
  return parseQuery(vars.empty() ? "SELECT * { FILTER EXISTS { " + body + " } }"
                                 : "SELECT DISTINCT " + vars + "{ " + body + " }")
      .pattern;
}

OpPtr joined(OpPtr left, OpPtr right) {
  if (!left) return right;
  auto j = std::make_shared<Op>();
  j->kind = Op::Kind::Join;
  j->pos = right->pos;
  j->children = {std::move(left), std::move(right)};
  return j;
}

}  // namespace gsparql::sparql
