// SPARQL 1.2's triple terms, reified triples and annotations (the Query
// draft's section 4.3 and its grammar): a reified triple `<< s p o ~ r >>`
// is the reifier r with the triple `r rdf:reifies <<( s p o )>>`, an
// annotation `s p o ~ r {| q z |}` adds `r rdf:reifies <<( s p o )>>` and
// `r q z`, and a reifier left out is a fresh blank node. A triple term whose
// parts are all constants is a constant; one with variables or blank nodes
// is a fresh variable whose parts the Translator binds.
#include "parser/src/expr_builders.h"
#include "parser/src/walker.h"
#include "rdf/term.h"

namespace gsparql::sparql {
namespace {

Term reifies() { return Term::constant(rdf::iriTerm("http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies")); }

}  // namespace

Term Walker::verb(P::VerbContext* ctx) {
  if (ctx->var()) return var(ctx->var());
  if (ctx->iri()) return Term::constant(iri(ctx->iri()));
  return Term::constant(rdf::iriTerm(rdf::kRdfType));  // 'a'
}

// A blank node inside a triple term is a variable: in a pattern it matches
// any term; in a template it is bound to a new blank node per solution.
Term Walker::tripleTermPart(Term part, bool inTemplate) {
  if (part.kind != Term::Kind::Blank) return part;
  return Term::variable(translator_.blankVariable(part.value, inTemplate && !constructWhere_));
}

Term Walker::tripleTermOf(const Term& s, const Term& p, const Term& o, Position pos, bool inTemplate) {
  if (s.isConstant() && p.isConstant() && o.isConstant()) return Term::constant(rdf::tripleTerm(s.value, p.value, o.value));
  return Term::variable(translator_.tripleTermVariable({s, p, o, pos}, inTemplate && !constructWhere_));
}

Term Walker::tripleTerm(P::TripleTermContext* ctx, bool inTemplate) {
  auto* subject = ctx->tripleTermSubject();
  Term s = subject->var() ? var(subject->var())
           : subject->iri() ? Term::constant(iri(subject->iri()))
           : subject->blankNode() ? blankNode(subject->blankNode())
                                  : tripleTerm(subject->tripleTerm(), inTemplate);
  auto* object = ctx->tripleTermObject();
  Term o;
  if (object->var()) {
    o = var(object->var());
  } else if (object->tripleTerm()) {
    o = tripleTerm(object->tripleTerm(), inTemplate);
  } else if (object->blankNode()) {
    o = blankNode(object->blankNode());
  } else {
    o = Term::constant(constant(object->iri(), object->rdfLiteral(), object->numericLiteral(), object->booleanLiteral()));
  }
  return tripleTermOf(tripleTermPart(s, inTemplate), verb(ctx->verb()), tripleTermPart(o, inTemplate), at(ctx),
                      inTemplate);
}

Term Walker::reifier(P::ReifierContext* ctx) {
  auto* id = ctx->varOrReifierId();
  if (id == nullptr) return Term::blank(fresh_.next("_b"));
  if (id->var()) return var(id->var());
  if (id->iri()) return Term::constant(iri(id->iri()));
  return blankNode(id->blankNode());
}

// << s p o ~ r >>: the reifier, after the triple that says what it reifies.
Term Walker::reifiedTriple(P::ReifiedTripleContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate) {
  auto* subject = ctx->reifiedTripleSubject();
  Term s = subject->var() ? var(subject->var())
           : subject->iri() ? Term::constant(iri(subject->iri()))
           : subject->blankNode() ? blankNode(subject->blankNode())
           : subject->tripleTerm() ? tripleTerm(subject->tripleTerm(), inTemplate)
                                   : reifiedTriple(subject->reifiedTriple(), out, inTemplate);
  auto* object = ctx->reifiedTripleObject();
  Term o;
  if (object->var()) {
    o = var(object->var());
  } else if (object->blankNode()) {
    o = blankNode(object->blankNode());
  } else if (object->reifiedTriple()) {
    o = reifiedTriple(object->reifiedTriple(), out, inTemplate);
  } else if (object->tripleTerm()) {
    o = tripleTerm(object->tripleTerm(), inTemplate);
  } else {
    o = Term::constant(constant(object->iri(), object->rdfLiteral(), object->numericLiteral(), object->booleanLiteral()));
  }
  Term r = ctx->reifier() ? reifier(ctx->reifier()) : Term::blank(fresh_.next("_b"));
  const Position pos = at(ctx);
  Term triple =
      tripleTermOf(tripleTermPart(s, inTemplate), verb(ctx->verb()), tripleTermPart(o, inTemplate), pos, inTemplate);
  out.push_back({TriplePattern{r, reifies(), triple, pos}, std::nullopt});
  return r;
}

// ~ r1 {| ... |} ~ r2 {| ... |}: each reifier reifies the triple; a block
// describes the reifier just before it, or a fresh one.
void Walker::annotations(P::AnnotationPathContext* ctx, const Term& s, const Term& p, const Term& o, Position pos,
                         std::vector<ast::TripleItem>& out, bool inTemplate) {
  std::optional<Term> current;
  auto reify = [&](Term r) {
    Term triple = tripleTermOf(tripleTermPart(s, inTemplate), p, tripleTermPart(o, inTemplate), pos, inTemplate);
    out.push_back({TriplePattern{r, reifies(), triple, pos}, std::nullopt});
    current = std::move(r);
  };
  for (auto* child : ctx->children) {
    if (auto* r = dynamic_cast<P::ReifierContext*>(child)) {
      reify(reifier(r));
    } else if (auto* block = dynamic_cast<P::AnnotationBlockPathContext*>(child)) {
      if (!current) reify(Term::blank(fresh_.next("_b")));
      propertyList(block->propertyListPathNotEmpty(), *current, at(block), out, inTemplate);
      current.reset();
    }
  }
}

std::string Walker::tripleTermData(P::TripleTermDataContext* ctx) {
  auto iris = ctx->iri();
  std::string predicate = iris.size() == 2 ? iri(iris[1]) : rdf::iriTerm(rdf::kRdfType);
  auto* object = ctx->tripleTermDataObject();
  std::string o = object->tripleTermData()
                      ? tripleTermData(object->tripleTermData())
                      : constant(object->iri(), object->rdfLiteral(), object->numericLiteral(), object->booleanLiteral());
  return rdf::tripleTerm(iri(iris[0]), predicate, o);
}

// <<( s p o )>> in an expression is TRIPLE(s, p, o); a constant when its parts are.
Expr Walker::exprTripleTerm(P::ExprTripleTermContext* ctx) {
  const Position pos = at(ctx);
  Term s = varOrIri(ctx->varOrIri());
  Term p = verb(ctx->verb());
  auto* object = ctx->exprTripleTermObject();
  Expr o;
  if (object->var()) {
    o = termExpr(var(object->var()), at(object));
  } else if (object->exprTripleTerm()) {
    o = exprTripleTerm(object->exprTripleTerm());
  } else {
    o = termExpr(Term::constant(constant(object->iri(), object->rdfLiteral(), object->numericLiteral(),
                                         object->booleanLiteral())),
                 at(object));
  }
  if (s.isConstant() && p.isConstant() && o.kind == Expr::Kind::Term && o.term.isConstant()) {
    return termExpr(Term::constant(rdf::tripleTerm(s.value, p.value, o.term.value)), pos);
  }
  std::vector<Expr> args;
  args.push_back(termExpr(std::move(s), pos));
  args.push_back(termExpr(std::move(p), pos));
  args.push_back(std::move(o));
  return call("TRIPLE", std::move(args), pos);
}

}  // namespace gsparql::sparql
