#pragma once
// Walks the ANTLR parse tree and builds the project's own types: the syntax
// tree of group patterns (ast.h), handed to the Translator for algebra.
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "SparqlParser.h"
#include "parser/src/token_text.h"
#include "parser/src/translate.h"
#include "parser/update.h"

namespace gsparql::sparql {

// The line and column where a token or a rule's text starts.
inline Position at(antlr4::Token* t) {
  return {static_cast<std::uint32_t>(t->getLine()), static_cast<std::uint32_t>(t->getCharPositionInLine() + 1)};
}
inline Position at(antlr4::ParserRuleContext* ctx) { return at(ctx->getStart()); }

class Walker {
 public:
  // `base`: the base IRI until a BASE declaration (empty: none).
  Walker(std::string_view text, FreshNames& fresh, std::string base = {})
      : text_(text), textOf_(text), fresh_(fresh), translator_(text, fresh), base_(std::move(base)) {}

  Query query(gsparql_antlr::SparqlParser::QueryUnitContext* ctx);
  UpdateRequest update(gsparql_antlr::SparqlParser::UpdateUnitContext* ctx);  // update_walker.cpp
  // The prologue's base IRI, after query() read it (empty without BASE).
  const std::string& base() const { return base_; }
  // The prologue's prefixes, after query() read them.
  std::vector<std::pair<std::string, std::string>> prefixes() const { return {prefixes_.begin(), prefixes_.end()}; }

 private:
  using P = gsparql_antlr::SparqlParser;

  // prologue and terms
  void prologue(P::PrologueContext* ctx);
  std::string iri(P::IriContext* ctx);  // in term form
  std::string literal(P::RdfLiteralContext* ctx);
  std::string numeric(antlr4::Token* token);
  std::string boolean(P::BooleanLiteralContext* ctx);
  Term var(P::VarContext* ctx);
  Term varOrIri(P::VarOrIriContext* ctx);
  Term graphTerm(P::GraphTermContext* ctx);
  Term blankNode(P::BlankNodeContext* ctx);
  // The one of these that is not null, in term form.
  std::string constant(P::IriContext* iri, P::RdfLiteralContext* literal, P::NumericLiteralContext* numeric,
                       P::BooleanLiteralContext* boolean);

  // triples; `inTemplate` rejects property paths (CONSTRUCT templates)
  void triplesBlock(P::TriplesBlockContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate);
  // `pos`, the position of the subject, becomes the position of each triple.
  void propertyList(P::PropertyListPathNotEmptyContext* ctx, const Term& subject, Position pos,
                    std::vector<ast::TripleItem>& out, bool inTemplate);
  Term graphNode(P::GraphNodePathContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate);
  Term varOrTerm(P::VarOrTermContext* ctx, bool inTemplate);
  void object(P::ObjectPathContext* ctx, const Term& subject, const Term& predicate, const Path* path, Position pos,
              std::vector<ast::TripleItem>& out, bool inTemplate);

  // SPARQL 1.2 (walker_triple_terms.cpp): triple terms, reified triples and
  // annotations, expanded to triples as the draft's section 18 says.
  Term verb(P::VerbContext* ctx);
  Term tripleTerm(P::TripleTermContext* ctx, bool inTemplate);
  Term tripleTermPart(Term part, bool inTemplate);
  Term tripleTermOf(const Term& s, const Term& p, const Term& o, Position pos, bool inTemplate);
  Term reifiedTriple(P::ReifiedTripleContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate);
  Term reifier(P::ReifierContext* ctx);
  void annotations(P::AnnotationPathContext* ctx, const Term& s, const Term& p, const Term& o, Position pos,
                   std::vector<ast::TripleItem>& out, bool inTemplate);
  std::string tripleTermData(P::TripleTermDataContext* ctx);
  Expr exprTripleTerm(P::ExprTripleTermContext* ctx);
  Term collection(P::CollectionPathContext* ctx, std::vector<ast::TripleItem>& out, bool inTemplate);
  Path path(P::PathContext* ctx);
  Path pathElement(P::PathEltOrInverseContext* ctx);
  Path negatedSet(P::PathNegatedPropertySetContext* ctx);
  void emitPath(const Term& s, const Path& p, const Term& o, Position pos, std::vector<ast::TripleItem>& out);

  // patterns
  ast::GroupPattern groupPattern(P::GroupGraphPatternContext* ctx);
  ast::Element element(P::GraphPatternNotTriplesContext* ctx);
  Table dataBlock(P::DataBlockContext* ctx);
  OpPtr select(P::SelectClauseContext* select, P::WhereClauseContext* where,
               P::SolutionModifierContext* modifiers, P::ValuesClauseContext* values);
  void solutionModifiers(P::SolutionModifierContext* ctx, P::ValuesClauseContext* values,
                         ast::SolutionModifiers& m);
  std::uint64_t unsignedInteger(antlr4::tree::TerminalNode* node);
  void datasets(const std::vector<P::DatasetClauseContext*>& clauses, Query& q);

  // update operations (update_walker.cpp)
  UpdateOperation operation(P::Update1Context* ctx);
  void modify(P::ModifyContext* ctx, UpdateOperation& op);
  std::vector<Quad> quads(P::QuadsContext* ctx);
  // INSERT DATA and DELETE DATA: no variables; `forDelete`: no blank nodes either.
  std::vector<Quad> groundQuads(P::QuadsContext* ctx, bool forDelete);
  void rejectBlankNodes(const std::vector<Quad>& quads, std::string_view where) const;
  void checkLabelsNotReused(const UpdateOperation& op, std::set<std::string>& earlierLabels) const;
  OpPtr quadsAsPattern(const std::vector<Quad>& quads, Position pos);
  GraphTarget graphRefAll(P::GraphRefAllContext* ctx);
  GraphTarget graphOrDefault(P::GraphOrDefaultContext* ctx);
  [[noreturn]] void fail(Position pos, std::string message) const;

  // expressions
  Expr expression(P::ExpressionContext* ctx);
  Expr relational(P::RelationalExpressionContext* ctx);
  Expr additive(P::AdditiveExpressionContext* ctx);
  Expr multiplicative(P::MultiplicativeExpressionContext* ctx);
  Expr unary(P::UnaryExpressionContext* ctx);
  Expr primary(P::PrimaryExpressionContext* ctx);
  Expr builtIn(P::BuiltInCallContext* ctx);
  Expr aggregate(P::AggregateContext* ctx);
  Expr function(P::IriContext* iri, P::ArgListContext* args);
  Expr constraint(P::ConstraintContext* ctx);
  std::vector<Expr> expressionList(P::ExpressionListContext* ctx);
  OpPtr existsPattern(P::GroupGraphPatternContext* ctx);

  std::string decoded(antlr4::Token* token, std::string (*decode)(std::string_view)) const;
  // Rules of one token read their first token's.
  std::string textOf(antlr4::Token* token) const { return textOf_(token); }
  [[noreturn]] void fail(antlr4::Token* at, std::string message) const;

  std::string_view text_;
  TokenText textOf_;
  FreshNames& fresh_;
  Translator translator_;
  std::string base_;
  std::map<std::string, std::string> prefixes_;
  bool aggregatesAllowed_ = false;  // true in SELECT, HAVING and ORDER BY
  bool constructWhere_ = false;     // reading CONSTRUCT WHERE's template, also its pattern
};

}  // namespace gsparql::sparql
