// SPARQL 1.2 triple terms with variables: in a pattern, the fresh variable
// ?t standing for <<( s p o )>> must be a triple term whose parts are s, p
// and o (constants compared, variables bound or compared); in a template, ?t
// is TRIPLE(s, p, o) of the solution.
#include <map>

#include "parser/print.h"
#include "parser/query_graph.h"
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

// `printedAs`: the text the printer writes for `var`, where it skips this Extend.
OpPtr extend(OpPtr child, const std::string& var, Expr value, Position pos, std::string printedAs = {}) {
  auto op = std::make_shared<Op>(*above(Op::Kind::Extend, std::move(child), pos));
  op->bindings.push_back({var, std::move(value)});
  if (!printedAs.empty()) op->printedAs.emplace_back(var, std::move(printedAs));
  return op;
}

Expr variable(const std::string& name, Position pos) { return termExpr(Term::variable(name), pos); }

}  // namespace

// How the printer writes a part: nested triple terms and blank nodes as written.
std::string Translator::textOf(const Term& part) const {
  if (part.kind == Term::Kind::Variable) {
    if (auto it = tripleTerms_.find(part.value); it != tripleTerms_.end()) return it->second.text;
    if (auto it = blankLabels_.find(part.value); it != blankLabels_.end()) return "_:" + it->second;
  }
  return toSparql(part);
}

std::string Translator::tripleTermVariable(TripleTermPattern pattern, bool inTemplate) {
  pattern.text = "<<( " + textOf(pattern.subject) + " " + textOf(pattern.predicate) + " " + textOf(pattern.object) + " )>>";
  const bool blankInside = holdsBlankNode(pattern.subject) || holdsBlankNode(pattern.object);
  auto [it, added] = tripleTermsByText_.try_emplace(pattern.text + (blankInside && inTemplate ? " template" : ""));
  if (added) {
    it->second = fresh_.next("_tt");
    tripleTerms_.emplace(it->second, std::move(pattern));
  }
  return it->second;
}

std::string Translator::blankVariable(const std::string& label, bool inTemplate) {
  auto [it, added] = blankVariables_.try_emplace((inTemplate ? "t:" : "p:") + label);
  if (added) {
    it->second = fresh_.next("_tb");
    blankLabels_.emplace(it->second, label);
  }
  return it->second;
}

Term Translator::withBlankVariable(Term t, bool inTemplate) const {
  if (t.kind != Term::Kind::Blank) return t;
  auto it = blankVariables_.find((inTemplate ? "t:" : "p:") + t.value);
  return it == blankVariables_.end() ? t : Term::variable(it->second);
}

TriplePattern Translator::withBlankVariables(TriplePattern t, bool inTemplate) const {
  if (blankVariables_.empty()) return t;
  t.subject = withBlankVariable(std::move(t.subject), inTemplate);
  t.object = withBlankVariable(std::move(t.object), inTemplate);
  return t;
}

namespace {

// The triples of a BGP in groups that share no variable (blank nodes count
// as variables), each in the order of its first triple.
std::vector<std::vector<TriplePattern>> components(const std::vector<TriplePattern>& triples) {
  std::vector<size_t> group(triples.size());
  std::map<std::string, size_t> groupOf;  // by variable or blank node
  auto find = [&](size_t i) {
    while (group[i] != i) i = group[i] = group[group[i]];
    return i;
  };
  for (size_t i = 0; i < triples.size(); ++i) {
    group[i] = i;
    for (const Term* t : {&triples[i].subject, &triples[i].predicate, &triples[i].object}) {
      if (t->kind == Term::Kind::Constant) continue;
      auto [it, added] = groupOf.try_emplace((t->kind == Term::Kind::Blank ? "_:" : "?") + t->value, i);
      if (!added) group[find(i)] = find(it->second);
    }
  }
  std::vector<std::vector<TriplePattern>> out;
  std::map<size_t, size_t> index;  // root -> position in out
  for (size_t i = 0; i < triples.size(); ++i) {
    auto [it, added] = index.try_emplace(find(i), out.size());
    if (added) out.emplace_back();
    out[it->second].push_back(triples[i]);
  }
  return out;
}

OpPtr bgpOf(std::vector<TriplePattern> triples, Position pos) {
  Op bgp;
  bgp.pos = pos;
  bgp.queryGraph = std::make_shared<const QueryGraph>(QueryGraph::fromBgp(triples));
  bgp.triples = std::move(triples);
  return std::make_shared<const Op>(std::move(bgp));
}

}  // namespace

// A BGP whose triple terms' parts are bound elsewhere in it would be a cross
// product filtered afterwards: its groups of triples that share no variable
// are BGPs of their own, each binding its triple terms' parts, joined on them.
OpPtr Translator::bindTripleTermParts(OpPtr op) {
  if (tripleTerms_.empty()) return op;
  if (op->kind != Op::Kind::Bgp) return bindPartsAbove(std::move(op));
  auto groups = components(op->triples);
  if (groups.size() == 1) return bindPartsAbove(std::move(op));
  OpPtr joined;
  for (auto& group : groups) {
    const Position pos = group.front().pos;
    OpPtr part = bindPartsAbove(bgpOf(std::move(group), pos));
    if (!joined) {
      joined = std::move(part);
      continue;
    }
    Op join;
    join.kind = Op::Kind::Join;
    join.pos = pos;
    join.children = {std::move(joined), std::move(part)};
    joined = std::make_shared<const Op>(std::move(join));
  }
  // A group without triple terms has no Filter to say what its blank nodes' variables stand for.
  Variables bound;
  addInScopeVariables(*op, bound);
  auto top = std::make_shared<Op>(*joined);
  top->printedBgp = op->triples;  // printed group by group, the reparse would number the triple terms otherwise
  for (const std::string& name : bound.ordered()) {
    if (auto it = blankLabels_.find(name); it != blankLabels_.end()) top->printedAs.emplace_back(name, "_:" + it->second);
  }
  return top;
}

OpPtr Translator::bindPartsAbove(OpPtr op) {
  Variables bound;
  addInScopeVariables(*op, bound);
  std::vector<std::string> pending;
  for (const std::string& name : bound.ordered()) {
    if (tripleTerms_.contains(name)) pending.push_back(name);
  }
  if (pending.empty()) return op;
  const Position pos = op->pos;
  std::vector<Expr> conditions;
  std::vector<std::pair<std::string, std::string>> printedAs;
  unsigned extends = 0;
  for (const std::string& name : bound.ordered()) {
    if (auto it = blankLabels_.find(name); it != blankLabels_.end()) printedAs.emplace_back(name, "_:" + it->second);
  }
  for (size_t i = 0; i < pending.size(); ++i) {  // grows by the nested triple terms
    const std::string name = pending[i];
    const TripleTermPattern& pattern = tripleTerms_.at(name);
    printedAs.emplace_back(name, pattern.text);
    conditions.push_back(call("ISTRIPLE", {variable(name, pos)}, pos));
    const std::pair<const char*, const Term*> parts[] = {
        {"SUBJECT", &pattern.subject}, {"PREDICATE", &pattern.predicate}, {"OBJECT", &pattern.object}};
    for (const auto& [function, part] : parts) {
      Expr value = call(function, {variable(name, pos)}, pos);
      if (part->kind == Term::Kind::Variable && !bound.contains(part->value)) {
        op = extend(std::move(op), part->value, std::move(value), pos);
        ++extends;
        bound.add(part->value);
        if (tripleTerms_.contains(part->value)) pending.push_back(part->value);
      } else {
        conditions.push_back(call("SAMETERM", {std::move(value), termExpr(*part, pos)}, pos));
      }
    }
  }
  auto filter = std::make_shared<Op>(*above(Op::Kind::Filter, std::move(op), pos));
  filter->exprs = std::move(conditions);
  filter->printedAs = std::move(printedAs);
  filter->sugarExtends = extends;
  return filter;
}

bool Translator::isBlankVariable(const std::string& name) const { return blankLabels_.contains(name); }

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
  if (auto label = blankLabels_.find(t.value); label != blankLabels_.end()) {
    const Position pos = where->pos;  // read before `where` moves
    where = extend(std::move(where), t.value, call("BNODE", {}, pos), pos, "_:" + label->second);
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
  where = extend(std::move(where), t.value, call("TRIPLE", std::move(args), pattern.pos), pattern.pos, pattern.text);
  bound.add(t.value);
}

OpPtr Translator::bindTemplateTripleTerms(OpPtr where, std::vector<TriplePattern*> templ, bool patternBlanks) {
  if (tripleTerms_.empty()) return where;
  Variables bound;
  addInScopeVariables(*where, bound);
  for (TriplePattern* t : templ) {
    *t = withBlankVariables(std::move(*t), !patternBlanks);
    bindTemplateTerm(t->subject, where, bound);
    bindTemplateTerm(t->object, where, bound);
  }
  return where;
}

}  // namespace gsparql::sparql
