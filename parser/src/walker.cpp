#include "parser/src/walker.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "parser/parse.h"
#include "parser/src/expr_builders.h"
#include "parser/src/lexical.h"
#include "parser/src/term_tokens.h"
#include "parser/syntax_error.h"
#include "rdf/iri.h"
#include "rdf/term.h"

namespace gsparql::sparql {
namespace {

using P = gsparql_antlr::SparqlParser;
constexpr std::string_view kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

Term rdfConstant(std::string_view local) { return Term::constant(rdf::iriTerm(std::string(kRdf) + std::string(local))); }

// Operators move their operands in: a braced list copies them, and copying
// the left operand at each step made `?a = 1 || ?a = 2 || ...` quadratic.
Expr call(std::string name, Expr operand, Position pos) {
  std::vector<Expr> args(1);
  args[0] = std::move(operand);
  return call(std::move(name), std::move(args), pos);
}

Expr call(std::string name, Expr left, Expr right, Position pos) {
  std::vector<Expr> args(2);
  args[0] = std::move(left);
  args[1] = std::move(right);
  return call(std::move(name), std::move(args), pos);
}

// Sets a flag for the lifetime of a scope (aggregates allowed or not).
class FlagScope {
 public:
  FlagScope(bool& flag, bool value) : flag_(flag), saved_(flag) { flag_ = value; }
  ~FlagScope() { flag_ = saved_; }
  FlagScope(const FlagScope&) = delete;
  FlagScope& operator=(const FlagScope&) = delete;

 private:
  bool& flag_;
  bool saved_;
};

}  // namespace

void Walker::fail(antlr4::Token* token, std::string message) const {
  throw SyntaxError(text_, at(token), std::move(message), textOf(token));
}

// ---------------------------------------------------------------- terms

std::string Walker::decoded(antlr4::Token* token, std::string (*decode)(std::string_view)) const {
  try {
    return decode(textOf(token));
  } catch (const std::invalid_argument& e) {
    fail(token, e.what());
  }
}

void Walker::prologue(P::PrologueContext* ctx) {
  for (auto* child : ctx->children) {
    if (auto* base = dynamic_cast<P::BaseDeclContext*>(child)) {
      base_ = rdf::resolveIri(base_, decoded(base->IRIREF()->getSymbol(), lexical::decodeIriRef));
    } else if (auto* prefix = dynamic_cast<P::PrefixDeclContext*>(child)) {
      std::string ns = textOf(prefix->PNAME_NS()->getSymbol());
      ns.pop_back();  // the ':'
      prefixes_[ns] = rdf::resolveIri(base_, decoded(prefix->IRIREF()->getSymbol(), lexical::decodeIriRef));
    }
  }
}

std::string Walker::iri(P::IriContext* ctx) {
  if (auto* ref = ctx->IRIREF()) return rdf::iriTerm(rdf::resolveIri(base_, decoded(ref->getSymbol(), lexical::decodeIriRef)));
  const std::string name = textOf(ctx->getStart());
  auto term = prefixedNameTerm(prefixes_, name);
  if (!term) fail(ctx->getStart(), "undeclared prefix '" + name.substr(0, name.find(':') + 1) + "'");
  return *std::move(term);
}

std::string Walker::literal(P::RdfLiteralContext* ctx) {
  std::string lexicalForm = decoded(ctx->getStart(), lexical::decodeString);
  if (auto* lang = ctx->LANGTAG()) {
    const std::string tag = textOf(lang->getSymbol()).substr(1);
    if (size_t dash = tag.find("--"); dash != std::string::npos) {
      const std::string direction = tag.substr(dash + 2);
      if (direction != "ltr" && direction != "rtl") {
        fail(lang->getSymbol(), "a base direction is ltr or rtl, not '" + direction + "'");
      }
    }
    return rdf::literalTerm(lexicalForm, tag);
  }
  if (auto* datatype = ctx->iri()) return typedLiteralTerm(lexicalForm, iri(datatype));
  return rdf::literalTerm(lexicalForm);
}

// Numeric shorthand keeps its lexical form and gets its XSD datatype.
std::string Walker::numeric(antlr4::Token* token) { return numericTerm(token->getType(), textOf(token)); }

std::string Walker::boolean(P::BooleanLiteralContext* ctx) { return booleanTerm(ctx->TRUE() != nullptr); }

Term Walker::var(P::VarContext* ctx) { return Term::variable(textOf(ctx->getStart()).substr(1)); }

Term Walker::varOrIri(P::VarOrIriContext* ctx) {
  return ctx->var() ? var(ctx->var()) : Term::constant(iri(ctx->iri()));
}

std::string Walker::constant(P::IriContext* iriCtx, P::RdfLiteralContext* literalCtx, P::NumericLiteralContext* numericCtx,
                             P::BooleanLiteralContext* booleanCtx) {
  if (iriCtx != nullptr) return iri(iriCtx);
  if (literalCtx != nullptr) return literal(literalCtx);
  if (numericCtx != nullptr) return numeric(numericCtx->getStart());
  return boolean(booleanCtx);
}

Term Walker::blankNode(P::BlankNodeContext* ctx) {
  if (ctx->ANON()) return Term::blank(fresh_.next("_b"));
  return Term::blank(textOf(ctx->getStart()).substr(2));
}

Term Walker::graphTerm(P::GraphTermContext* ctx) {
  if (auto* b = ctx->blankNode()) return blankNode(b);
  if (ctx->NIL()) return rdfConstant("nil");  // the empty collection
  return Term::constant(constant(ctx->iri(), ctx->rdfLiteral(), ctx->numericLiteral(), ctx->booleanLiteral()));
}

// ---------------------------------------------------------------- triples

void Walker::triplesBlock(P::TriplesBlockContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate) {
  for (auto* t : ctx->triplesSameSubjectPath()) {
    if (t->varOrTerm()) {
      propertyList(t->propertyListPathNotEmpty(), varOrTerm(t->varOrTerm(), inTemplate), at(t), out, inTemplate);
      continue;
    }
    if (auto* reified = t->reifiedTriple()) {
      Term subject = reifiedTriple(reified, out, inTemplate);
      if (auto* list = t->propertyListPath()->propertyListPathNotEmpty()) propertyList(list, subject, at(t), out, inTemplate);
      continue;
    }
    auto* node = t->triplesNodePath();
    if (node->collectionPath()) {
      Term head = collection(node->collectionPath(), out, inTemplate);
      if (auto* list = t->propertyListPath()->propertyListPathNotEmpty()) propertyList(list, head, at(t), out, inTemplate);
    } else {
      Term subject = Term::blank(fresh_.next("_b"));
      propertyList(node->blankNodePropertyListPath()->propertyListPathNotEmpty(), subject, at(t), out, inTemplate);
      if (auto* list = t->propertyListPath()->propertyListPathNotEmpty()) propertyList(list, subject, at(t), out, inTemplate);
    }
  }
}

void Walker::propertyList(P::PropertyListPathNotEmptyContext* ctx, const Term& subject, Position pos,
                          std::vector<ast::TripleItem>& out, bool inTemplate) {
  auto verbs = ctx->verbPathOrSimple();
  auto objectLists = ctx->objectListPath();
  for (std::size_t i = 0; i < verbs.size(); ++i) {
    Path p;
    Term predicate;
    bool simple = verbs[i]->var() != nullptr;
    if (simple) {
      predicate = var(verbs[i]->var());
    } else {
      p = path(verbs[i]->path());
      if (inTemplate && p.kind != Path::Kind::Link) fail(verbs[i]->getStart(), "property paths are not allowed in a CONSTRUCT template");
    }
    for (auto* o : objectLists[i]->objectPath()) object(o, subject, predicate, simple ? nullptr : &p, pos, out, inTemplate);
  }
}

// One object of a property list, with its annotations; `path` is null for a
// variable predicate.
void Walker::object(P::ObjectPathContext* ctx, const Term& subject, const Term& predicate, const Path* path,
                    Position pos, std::vector<ast::TripleItem>& out, bool inTemplate) {
  Term o = graphNode(ctx->graphNodePath(), out, inTemplate);
  if (path == nullptr) {
    out.push_back({TriplePattern{subject, predicate, o, pos}, std::nullopt});
  } else {
    emitPath(subject, *path, o, pos, out);
  }
  if (ctx->annotationPath()->children.empty()) return;
  if (path != nullptr && path->kind != Path::Kind::Link) {
    fail(ctx->annotationPath()->getStart(), "an annotation needs a triple: its predicate cannot be a property path");
  }
  annotations(ctx->annotationPath(), subject, path == nullptr ? predicate : Term::constant(path->iri), o, pos, out,
              inTemplate);
}

Term Walker::varOrTerm(P::VarOrTermContext* ctx, bool inTemplate) {
  if (ctx->var()) return var(ctx->var());
  if (ctx->tripleTerm()) return tripleTerm(ctx->tripleTerm(), inTemplate);
  return graphTerm(ctx->graphTerm());
}

Term Walker::graphNode(P::GraphNodePathContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate) {
  if (auto* t = ctx->varOrTerm()) return varOrTerm(t, inTemplate);
  if (auto* reified = ctx->reifiedTriple()) return reifiedTriple(reified, out, inTemplate);
  auto* node = ctx->triplesNodePath();
  if (node->collectionPath()) return collection(node->collectionPath(), out, inTemplate);
  Term b = Term::blank(fresh_.next("_b"));
  propertyList(node->blankNodePropertyListPath()->propertyListPathNotEmpty(), b, at(node), out, inTemplate);
  return b;
}

// ( a b ) is _:c1 rdf:first a ; rdf:rest _:c2 . _:c2 rdf:first b ; rdf:rest rdf:nil.
Term Walker::collection(P::CollectionPathContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate) {
  Position pos = at(ctx);
  Term head = Term::blank(fresh_.next("_b"));
  Term cell = head;
  auto items = ctx->graphNodePath();
  for (std::size_t i = 0; i < items.size(); ++i) {
    Term value = graphNode(items[i], out, inTemplate);
    out.push_back({TriplePattern{cell, rdfConstant("first"), value, pos}, std::nullopt});
    Term next = i + 1 < items.size() ? Term::blank(fresh_.next("_b")) : rdfConstant("nil");
    out.push_back({TriplePattern{cell, rdfConstant("rest"), next, pos}, std::nullopt});
    cell = next;
  }
  return head;
}

Path Walker::path(P::PathContext* ctx) {
  Path alternative{Path::Kind::Alternative, {}, {}};
  for (auto* seq : ctx->pathSequence()) {
    Path sequence{Path::Kind::Sequence, {}, {}};
    for (auto* elt : seq->pathEltOrInverse()) sequence.args.push_back(pathElement(elt));
    alternative.args.push_back(sequence.args.size() == 1 ? std::move(sequence.args[0]) : std::move(sequence));
  }
  return alternative.args.size() == 1 ? std::move(alternative.args[0]) : alternative;
}

Path Walker::pathElement(P::PathEltOrInverseContext* ctx) {
  auto* primary = ctx->pathPrimary();
  Path p;
  if (primary->iri()) {
    p = Path{Path::Kind::Link, iri(primary->iri()), {}};
  } else if (primary->path()) {
    p = path(primary->path());
  } else if (primary->pathNegatedPropertySet()) {
    p = negatedSet(primary->pathNegatedPropertySet());
  } else {
    p = Path{Path::Kind::Link, rdf::iriTerm(rdf::kRdfType), {}};  // 'a'
  }
  if (auto* mod = ctx->pathMod()) {
    char m = textOf(mod->getStart())[0];
    auto kind = m == '*' ? Path::Kind::ZeroOrMore : m == '+' ? Path::Kind::OneOrMore : Path::Kind::ZeroOrOne;
    p = Path{kind, {}, {std::move(p)}};
  }
  if (textOf(ctx->getStart()) == "^") p = Path{Path::Kind::Inverse, {}, {std::move(p)}};
  return p;
}

Path Walker::negatedSet(P::PathNegatedPropertySetContext* ctx) {
  Path set{Path::Kind::NegatedSet, {}, {}};
  for (auto* one : ctx->pathOneInPropertySet()) {
    Path link{Path::Kind::Link, one->iri() ? iri(one->iri()) : rdf::iriTerm(rdf::kRdfType), {}};
    bool inverse = textOf(one->getStart()) == "^";
    set.args.push_back(inverse ? Path{Path::Kind::Inverse, {}, {std::move(link)}} : std::move(link));
  }
  return set;
}

// Section 18.2.2.4: links become triples; inverses swap ends; sequences
// chain through fresh variables; anything else stays a path.
void Walker::emitPath(const Term& s, const Path& p, const Term& o, Position pos, std::vector<ast::TripleItem>& out) {
  switch (p.kind) {
    case Path::Kind::Link:
      out.push_back({TriplePattern{s, Term::constant(p.iri), o, pos}, std::nullopt});
      return;
    case Path::Kind::Inverse:
      emitPath(o, p.args[0], s, pos, out);
      return;
    case Path::Kind::Sequence: {
      Term from = s;
      for (std::size_t i = 0; i + 1 < p.args.size(); ++i) {
        Term step = Term::variable(fresh_.next("_p"));
        emitPath(from, p.args[i], step, pos, out);
        from = step;
      }
      emitPath(from, p.args.back(), o, pos, out);
      return;
    }
    default:
      out.push_back({TriplePattern{s, Term{}, o, pos}, p});
  }
}

// ---------------------------------------------------------------- patterns

ast::GroupPattern Walker::groupPattern(P::GroupGraphPatternContext* ctx) {
  ast::GroupPattern g;
  g.pos = at(ctx);
  if (auto* sub = ctx->subSelect()) {
    ast::Element e;
    e.kind = ast::Element::Kind::SubSelect;
    e.pos = at(sub);
    e.subSelect = select(sub->selectClause(), sub->whereClause(), sub->solutionModifier(), sub->valuesClause());
    g.elements.push_back(std::move(e));
    return g;
  }
  for (auto* child : ctx->groupGraphPatternSub()->children) {
    if (auto* block = dynamic_cast<P::TriplesBlockContext*>(child)) {
      ast::Element e;
      e.kind = ast::Element::Kind::Triples;
      e.pos = at(block);
      triplesBlock(block, e.triples, false);
      g.elements.push_back(std::move(e));
    } else if (auto* other = dynamic_cast<P::GraphPatternNotTriplesContext*>(child)) {
      g.elements.push_back(element(other));
    }
  }
  return g;
}

ast::Element Walker::element(P::GraphPatternNotTriplesContext* ctx) {
  using K = ast::Element::Kind;
  ast::Element e;
  e.pos = at(ctx);
  if (auto* u = ctx->groupOrUnionGraphPattern()) {
    for (auto* g : u->groupGraphPattern()) e.groups.push_back(groupPattern(g));
    e.kind = e.groups.size() == 1 ? K::Group : K::Union;
  } else if (auto* o = ctx->optionalGraphPattern()) {
    e.kind = K::Optional;
    e.groups.push_back(groupPattern(o->groupGraphPattern()));
  } else if (auto* m = ctx->minusGraphPattern()) {
    e.kind = K::Minus;
    e.groups.push_back(groupPattern(m->groupGraphPattern()));
  } else if (auto* g = ctx->graphGraphPattern()) {
    e.kind = K::Graph;
    e.name = varOrIri(g->varOrIri());
    e.groups.push_back(groupPattern(g->groupGraphPattern()));
  } else if (auto* s = ctx->serviceGraphPattern()) {
    e.kind = K::Service;
    e.silent = s->SILENT() != nullptr;
    e.name = varOrIri(s->varOrIri());
    e.groups.push_back(groupPattern(s->groupGraphPattern()));
  } else if (auto* f = ctx->filter()) {
    e.kind = K::Filter;
    e.expr = constraint(f->constraint());
  } else if (auto* b = ctx->bind()) {
    e.kind = K::Bind;
    e.expr = expression(b->expression());
    e.var = var(b->var()).value;
  } else {
    e.kind = K::Values;
    e.values = dataBlock(ctx->inlineData()->dataBlock());
  }
  return e;
}

Table Walker::dataBlock(P::DataBlockContext* ctx) {
  Table table;
  auto value = [&](P::DataBlockValueContext* v) -> std::optional<std::string> {
    if (v->UNDEF()) return std::nullopt;
    if (v->tripleTermData()) return tripleTermData(v->tripleTermData());
    return constant(v->iri(), v->rdfLiteral(), v->numericLiteral(), v->booleanLiteral());
  };
  if (auto* one = ctx->inlineDataOneVar()) {
    table.vars.push_back(var(one->var()).value);
    for (auto* v : one->dataBlockValue()) table.rows.push_back({value(v)});
    return table;
  }
  auto* full = ctx->inlineDataFull();
  for (auto* v : full->var()) {
    std::string name = var(v).value;
    if (std::find(table.vars.begin(), table.vars.end(), name) != table.vars.end()) {
      fail(v->getStart(), "VALUES names ?" + name + " twice");
    }
    table.vars.push_back(std::move(name));
  }
  for (auto* row : full->dataBlockRow()) {
    auto values = row->dataBlockValue();
    if (values.size() != table.vars.size()) {
      fail(row->getStart(), "VALUES row has " + std::to_string(values.size()) + " values for " +
                                std::to_string(table.vars.size()) + " variables");
    }
    std::vector<std::optional<std::string>> cells;
    for (auto* v : values) cells.push_back(value(v));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

// ---------------------------------------------------------------- query level

OpPtr Walker::select(P::SelectClauseContext* select, P::WhereClauseContext* where,
                     P::SolutionModifierContext* modifiers, P::ValuesClauseContext* values) {
  OpPtr pattern;
  {
    FlagScope noAggregates(aggregatesAllowed_, false);
    pattern = translator_.group(groupPattern(where->groupGraphPattern()));
  }
  FlagScope aggregates(aggregatesAllowed_, true);
  ast::SolutionModifiers m;
  m.isSelect = true;
  m.pos = at(select);
  m.distinct = select->DISTINCT() != nullptr;
  m.reduced = select->REDUCED() != nullptr;
  m.selectAll = select->selectItem().empty();
  for (auto* item : select->selectItem()) {
    ast::SelectItem s;
    s.pos = at(item);
    s.var = var(item->var()).value;
    if (item->expression()) s.expr = expression(item->expression());
    m.items.push_back(std::move(s));
  }
  solutionModifiers(modifiers, values, m);
  return translator_.modifiers(pattern, m);
}

void Walker::solutionModifiers(P::SolutionModifierContext* ctx, P::ValuesClauseContext* values,
                               ast::SolutionModifiers& m) {
  FlagScope aggregates(aggregatesAllowed_, true);
  if (auto* group = ctx->groupClause()) {
    m.hasGroupBy = true;
    m.groupPos = at(group);
    for (auto* c : group->groupCondition()) {
      if (c->builtInCall()) {
        m.groupKeys.push_back({"", builtIn(c->builtInCall())});
      } else if (auto* f = c->functionCall()) {
        m.groupKeys.push_back({"", function(f->iri(), f->argList())});
      } else if (c->expression()) {
        m.groupKeys.push_back({c->var() ? var(c->var()).value : "", expression(c->expression())});
      } else {
        Term v = var(c->var());
        m.groupKeys.push_back({v.value, termExpr(v, at(c))});
      }
    }
  }
  if (auto* having = ctx->havingClause()) {
    for (auto* c : having->constraint()) m.having.push_back(constraint(c));
  }
  if (auto* order = ctx->orderClause()) {
    for (auto* c : order->orderCondition()) {
      if (c->brackettedExpression()) {
        m.order.push_back({expression(c->brackettedExpression()->expression()), c->DESC() != nullptr});
      } else if (c->constraint()) {
        m.order.push_back({constraint(c->constraint()), false});
      } else {
        m.order.push_back({termExpr(var(c->var()), at(c)), false});
      }
    }
  }
  if (auto* lo = ctx->limitOffsetClauses()) {
    if (auto* limit = lo->limitClause()) m.limit = unsignedInteger(limit->INTEGER());
    if (auto* offset = lo->offsetClause()) m.offset = unsignedInteger(offset->INTEGER());
  }
  if (values && values->dataBlock()) m.values = dataBlock(values->dataBlock());
}

std::uint64_t Walker::unsignedInteger(antlr4::tree::TerminalNode* node) {
  std::string text = textOf(node->getSymbol());
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{}) fail(node->getSymbol(), "number " + text + " is too large");
  return value;
}

void Walker::datasets(const std::vector<P::DatasetClauseContext*>& clauses, Query& q) {
  for (auto* d : clauses) (d->NAMED() ? q.fromNamedGraphs : q.fromGraphs).push_back(iri(d->iri()));
}

Query Walker::query(P::QueryUnitContext* ctx) {
  prologue(ctx->prologue());
  auto* q = ctx->query();
  Query out;
  if (auto* s = q->selectQuery()) {
    out.form = Query::Form::Select;
    out.pos = at(s);
    datasets(s->datasetClause(), out);
    out.pattern = select(s->selectClause(), s->whereClause(), s->solutionModifier(), q->valuesClause());
    return out;
  }
  ast::SolutionModifiers m;
  P::SolutionModifierContext* modifiers = nullptr;
  OpPtr pattern;
  if (auto* c = q->constructQuery()) {
    out.form = Query::Form::Construct;
    out.pos = at(c);
    datasets(c->datasetClause(), out);
    modifiers = c->solutionModifier();
    std::vector<ast::TripleItem> items;
    if (auto* templ = c->constructTemplate()) {
      if (templ->triplesBlock()) triplesBlock(templ->triplesBlock(), items, true);
      pattern = translator_.group(groupPattern(c->whereClause()->groupGraphPattern()));
    } else {  // CONSTRUCT WHERE { template }: the template is also the pattern
      out.constructWhere = true;
      ast::GroupPattern g;
      g.pos = at(c);
      if (c->triplesBlock()) {
        // Blank nodes inside its triple terms are the pattern's: the
        // template gives what they matched, inside terms and out.
        FlagScope patternBlanks(constructWhere_, true);
        triplesBlock(c->triplesBlock(), items, true);
        ast::Element e;
        e.pos = at(c->triplesBlock());
        e.triples = items;
        g.elements.push_back(std::move(e));
      }
      pattern = translator_.group(g);
    }
    for (auto& item : items) out.constructTemplate.push_back(item.triple);
    std::vector<TriplePattern*> templ;
    for (auto& t : out.constructTemplate) templ.push_back(&t);
    pattern = translator_.bindTemplateTripleTerms(pattern, templ, !c->constructTemplate());
  } else if (auto* d = q->describeQuery()) {
    out.form = Query::Form::Describe;
    out.pos = at(d);
    datasets(d->datasetClause(), out);
    modifiers = d->solutionModifier();
    for (auto* t : d->varOrIri()) out.describeTerms.push_back(varOrIri(t));
    ast::GroupPattern empty;
    empty.pos = at(d);
    pattern = translator_.group(d->whereClause() ? groupPattern(d->whereClause()->groupGraphPattern()) : empty);
  } else {
    auto* a = q->askQuery();
    out.form = Query::Form::Ask;
    out.pos = at(a);
    datasets(a->datasetClause(), out);
    modifiers = a->solutionModifier();
    pattern = translator_.group(groupPattern(a->whereClause()->groupGraphPattern()));
  }
  m.pos = out.pos;
  solutionModifiers(modifiers, q->valuesClause(), m);
  out.pattern = translator_.modifiers(pattern, m);
  return out;
}

// ---------------------------------------------------------------- expressions

Expr Walker::expression(P::ExpressionContext* ctx) {
  Expr result;
  bool first = true;
  for (auto* andCtx : ctx->conditionalAndExpression()) {
    Expr conj;
    bool firstAnd = true;
    for (auto* rel : andCtx->relationalExpression()) {
      Expr r = relational(rel);
      conj = firstAnd ? std::move(r) : call("&&", std::move(conj), std::move(r), at(andCtx));
      firstAnd = false;
    }
    result = first ? std::move(conj) : call("||", std::move(result), std::move(conj), at(ctx));
    first = false;
  }
  return result;
}

Expr Walker::relational(P::RelationalExpressionContext* ctx) {
  auto sides = ctx->additiveExpression();
  Expr left = additive(sides[0]);
  if (ctx->op) return call(textOf(ctx->op), std::move(left), additive(sides[1]), at(ctx));
  if (!ctx->IN()) return left;
  std::vector<Expr> args{std::move(left)};
  for (auto& e : expressionList(ctx->expressionList())) args.push_back(std::move(e));
  return call(ctx->NOT() ? "NOT IN" : "IN", std::move(args), at(ctx));
}

// `?a -2 * ?b` lexes the sign into the number; the grammar (production 116)
// reads it as ?a - (2 * ?b).
Expr Walker::additive(P::AdditiveExpressionContext* ctx) {
  Expr left = multiplicative(ctx->multiplicativeExpression());
  for (auto* tail : ctx->additiveTail()) {
    if (tail->op) {
      left = call(textOf(tail->op), std::move(left), multiplicative(tail->multiplicativeExpression()), at(tail));
      continue;
    }
    antlr4::Token* number = tail->signedNumericLiteral()->getStart();
    std::string text = textOf(number);
    Expr right = termExpr(Term::constant(numericTerm(number->getType(), text.substr(1))), at(number));
    for (auto* m : tail->multiplicativeTail()) {
      right = call(textOf(m->op), std::move(right), unary(m->unaryExpression()), at(m));
    }
    left = call(text.substr(0, 1), std::move(left), std::move(right), at(tail));
  }
  return left;
}

Expr Walker::multiplicative(P::MultiplicativeExpressionContext* ctx) {
  Expr left = unary(ctx->unaryExpression());
  for (auto* tail : ctx->multiplicativeTail()) {
    left = call(textOf(tail->op), std::move(left), unary(tail->unaryExpression()), at(tail));
  }
  return left;
}

Expr Walker::unary(P::UnaryExpressionContext* ctx) {
  if (auto* negated = ctx->unaryExpression()) return call("!", unary(negated), at(ctx));
  Expr operand = primary(ctx->primaryExpression());
  if (!ctx->op) return operand;
  std::string op = textOf(ctx->op);
  return call(op == "!" ? "!" : op == "+" ? "UPLUS" : "UMINUS", std::move(operand), at(ctx));
}

Expr Walker::primary(P::PrimaryExpressionContext* ctx) {
  Position pos = at(ctx);
  if (auto* b = ctx->brackettedExpression()) return expression(b->expression());
  if (auto* b = ctx->builtInCall()) return builtIn(b);
  if (auto* f = ctx->iriOrFunction()) {
    if (f->argList()) return function(f->iri(), f->argList());
    return termExpr(Term::constant(iri(f->iri())), pos);
  }
  if (ctx->rdfLiteral()) return termExpr(Term::constant(literal(ctx->rdfLiteral())), pos);
  if (ctx->numericLiteral()) return termExpr(Term::constant(numeric(ctx->numericLiteral()->getStart())), pos);
  if (ctx->booleanLiteral()) return termExpr(Term::constant(boolean(ctx->booleanLiteral())), pos);
  if (ctx->exprTripleTerm()) return exprTripleTerm(ctx->exprTripleTerm());
  return termExpr(var(ctx->var()), pos);
}

Expr Walker::builtIn(P::BuiltInCallContext* ctx) {
  Position pos = at(ctx);
  if (ctx->aggregate()) return aggregate(ctx->aggregate());
  if (ctx->EXISTS()) {
    Expr e;
    e.kind = ctx->NOT() ? Expr::Kind::NotExists : Expr::Kind::Exists;
    e.pattern = existsPattern(ctx->groupGraphPattern());
    e.pos = pos;
    return e;
  }
  std::string name = upper(textOf(ctx->getStart()));
  if (ctx->BOUND()) return call(name, termExpr(var(ctx->var()), at(ctx->var())), pos);
  if (ctx->expressionList()) return call(name, expressionList(ctx->expressionList()), pos);
  std::vector<Expr> args;
  for (auto* e : ctx->expression()) args.push_back(expression(e));
  return call(name, std::move(args), pos);
}

Expr Walker::aggregate(P::AggregateContext* ctx) {
  if (!aggregatesAllowed_) fail(ctx->getStart(), "aggregates are only allowed in SELECT, HAVING and ORDER BY");
  Expr e;
  e.kind = Expr::Kind::Aggregate;
  e.pos = at(ctx);
  e.name = upper(textOf(ctx->getStart()));
  e.distinct = ctx->DISTINCT() != nullptr;
  if (ctx->expression()) {
    e.args.push_back(expression(ctx->expression()));
  } else {
    e.star = true;
  }
  if (ctx->string()) e.separator = decoded(ctx->string()->getStart(), lexical::decodeString);
  return e;
}

Expr Walker::function(P::IriContext* name, P::ArgListContext* args) {
  Expr e;
  e.kind = Expr::Kind::Function;
  e.pos = at(name);
  e.name = iri(name);
  e.distinct = args->DISTINCT() != nullptr;
  if (isExtensionAggregate(e.name)) {
    if (!aggregatesAllowed_) fail(name->getStart(), "aggregates are only allowed in SELECT, HAVING and ORDER BY");
    if (args->expression().size() != 1) fail(name->getStart(), e.name + " takes one argument");
    e.kind = Expr::Kind::Aggregate;
  }
  for (auto* a : args->expression()) e.args.push_back(expression(a));
  return e;
}

Expr Walker::constraint(P::ConstraintContext* ctx) {
  if (auto* b = ctx->brackettedExpression()) return expression(b->expression());
  if (auto* b = ctx->builtInCall()) return builtIn(b);
  return function(ctx->functionCall()->iri(), ctx->functionCall()->argList());
}

std::vector<Expr> Walker::expressionList(P::ExpressionListContext* ctx) {
  std::vector<Expr> out;
  for (auto* e : ctx->expression()) out.push_back(expression(e));
  return out;
}

OpPtr Walker::existsPattern(P::GroupGraphPatternContext* ctx) {
  FlagScope noAggregates(aggregatesAllowed_, false);
  return translator_.group(groupPattern(ctx));
}

}  // namespace gsparql::sparql
