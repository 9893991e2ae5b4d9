// SPARQL 1.2 triple terms with variables: in a pattern, the fresh variable
// ?t standing for <<( s p o )>> must be a triple term whose parts are s, p
// and o (constants compared, variables bound or compared); in a template, ?t
// is TRIPLE(s, p, o) of the solution.
#include "parser/src/expr_builders.h"
#include "parser/src/translate.h"
#include "parser/src/variables.h"

namespace gsparql::sparql {
namespace {

OpPtr above(Op::Kind kind, OpPtr child, Position pos) {
  Op op;
  op.kind = kind;
  op.pos = pos;
  op.children.push_back(std::move(child));
  return std::make_shared<const Op>(std::move(op));
}

OpPtr extend(OpPtr child, const std::string& var, Expr value, Position pos) {
  auto op = std::make_shared<Op>(*above(Op::Kind::Extend, std::move(child), pos));
  op->bindings.push_back({var, std::move(value)});
  return op;
}

Expr variable(const std::string& name, Position pos) { return termExpr(Term::variable(name), pos); }

}  // namespace

std::string Translator::tripleTermVariable(TripleTermPattern pattern) {
  std::string name = fresh_.next("_tt");
  tripleTerms_.emplace(name, std::move(pattern));
  return name;
}

std::string Translator::blankVariable(const std::string& label) {
  auto [it, added] = blankVariables_.try_emplace(label);
  if (added) it->second = fresh_.next("_tb");
  return it->second;
}

Term Translator::withBlankVariable(Term t) const {
  if (t.kind != Term::Kind::Blank) return t;
  auto it = blankVariables_.find(t.value);
  return it == blankVariables_.end() ? t : Term::variable(it->second);
}

TriplePattern Translator::withBlankVariables(TriplePattern t) const {
  if (blankVariables_.empty()) return t;
  t.subject = withBlankVariable(std::move(t.subject));
  t.object = withBlankVariable(std::move(t.object));
  return t;
}

OpPtr Translator::bindTripleTermParts(OpPtr op) {
  if (tripleTerms_.empty()) return op;
  Variables bound;
  addInScopeVariables(*op, bound);
  std::vector<std::string> pending;
  for (const std::string& name : bound.ordered()) {
    if (tripleTerms_.contains(name)) pending.push_back(name);
  }
  if (pending.empty()) return op;
  const Position pos = op->pos;
  std::vector<Expr> conditions;
  for (size_t i = 0; i < pending.size(); ++i) {  // grows by the nested triple terms
    const std::string name = pending[i];
    const TripleTermPattern& pattern = tripleTerms_.at(name);
    conditions.push_back(call("ISTRIPLE", {variable(name, pos)}, pos));
    const std::pair<const char*, const Term*> parts[] = {
        {"SUBJECT", &pattern.subject}, {"PREDICATE", &pattern.predicate}, {"OBJECT", &pattern.object}};
    for (const auto& [function, part] : parts) {
      Expr value = call(function, {variable(name, pos)}, pos);
      if (part->kind == Term::Kind::Variable && !bound.contains(part->value)) {
        op = extend(std::move(op), part->value, std::move(value), pos);
        bound.add(part->value);
        if (tripleTerms_.contains(part->value)) pending.push_back(part->value);
      } else {
        conditions.push_back(call("SAMETERM", {std::move(value), termExpr(*part, pos)}, pos));
      }
    }
  }
  auto filter = std::make_shared<Op>(*above(Op::Kind::Filter, std::move(op), pos));
  filter->exprs = std::move(conditions);
  return filter;
}

bool Translator::isBlankVariable(const std::string& name) const {
  for (const auto& [label, variable] : blankVariables_) {
    if (variable == name) return true;
  }
  return false;
}

bool Translator::holdsBlankNode(const Term& t) const {
  if (t.kind == Term::Kind::Blank) return true;
  if (t.kind != Term::Kind::Variable) return false;
  if (isBlankVariable(t.value)) return true;
  auto it = tripleTerms_.find(t.value);
  return it != tripleTerms_.end() && (holdsBlankNode(it->second.subject) || holdsBlankNode(it->second.object));
}

bool Translator::isGroundTripleTerm(const Term& t) const {
  if (t.kind != Term::Kind::Variable) return true;
  if (isBlankVariable(t.value)) return true;
  auto it = tripleTerms_.find(t.value);
  return it != tripleTerms_.end() && isGroundTripleTerm(it->second.subject) &&
         isGroundTripleTerm(it->second.predicate) && isGroundTripleTerm(it->second.object);
}

// A blank node's variable is a new blank node per solution; a triple term's
// is TRIPLE() of its parts, bound first.
void Translator::bindTemplateTerm(const Term& t, OpPtr& where, Variables& bound) {
  if (t.kind != Term::Kind::Variable || bound.contains(t.value)) return;
  if (isBlankVariable(t.value)) {
    where = extend(std::move(where), t.value, call("BNODE", {}, where->pos), where->pos);
    bound.add(t.value);
    return;
  }
  auto it = tripleTerms_.find(t.value);
  if (it == tripleTerms_.end()) return;
  const TripleTermPattern& pattern = it->second;
  std::vector<Expr> args;
  for (const Term* part : {&pattern.subject, &pattern.predicate, &pattern.object}) {
    bindTemplateTerm(*part, where, bound);
    args.push_back(termExpr(*part, pattern.pos));
  }
  where = extend(std::move(where), t.value, call("TRIPLE", std::move(args), pattern.pos), pattern.pos);
  bound.add(t.value);
}

OpPtr Translator::bindTemplateTripleTerms(OpPtr where, std::vector<TriplePattern*> templ) {
  if (tripleTerms_.empty()) return where;
  Variables bound;
  addInScopeVariables(*where, bound);
  for (TriplePattern* t : templ) {
    *t = withBlankVariables(std::move(*t));
    bindTemplateTerm(t->subject, where, bound);
    bindTemplateTerm(t->object, where, bound);
  }
  return where;
}

}  // namespace gsparql::sparql
