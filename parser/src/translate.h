#pragma once
// Section 18.2 of the recommendation: group graph patterns and solution
// modifiers to algebra, plus the static checks that need the algebra
// (variable scoping, grouping, blank node label scope).
#include <map>
#include <string_view>

#include "parser/src/ast.h"
#include "parser/src/fresh_names.h"
#include "parser/src/variables.h"

namespace gsparql::sparql {

class Translator {
 public:
  Translator(std::string_view text, FreshNames& fresh) : text_(text), fresh_(fresh) {}

  OpPtr group(const ast::GroupPattern& g);
  OpPtr modifiers(OpPtr where, const ast::SolutionModifiers& m);

  // SPARQL 1.2 (translate_triple_terms.cpp). A triple term with variables
  // or blank nodes stands in its triple as a fresh variable; a pattern binds
  // it and its parts (isTRIPLE, SUBJECT, ... above the basic graph pattern);
  // a template builds it with TRIPLE() above the WHERE pattern.
  struct TripleTermPattern {
    Term subject, predicate, object;
    Position pos;
    std::string text = {};  // as written, for the printer
  };
  // One variable for one triple term's text, so that a template and its
  // pattern (CONSTRUCT WHERE) share it; apart where blank nodes are inside.
  std::string tripleTermVariable(TripleTermPattern pattern, bool inTemplate);
  bool isTripleTermVariable(const std::string& name) const { return tripleTerms_.contains(name); }
  // The variable a blank node label inside a triple term becomes, in its
  // triple term and everywhere else in its pattern (or template).
  std::string blankVariable(const std::string& label, bool inTemplate);
  // Renames the template's blank nodes that are also inside its triple
  // terms, and binds above `where` what the template's triple terms need.
  // `patternBlanks`: CONSTRUCT WHERE, whose template's blank nodes inside
  // triple terms are its pattern's.
  OpPtr bindTemplateTripleTerms(OpPtr where, std::vector<TriplePattern*> templ, bool patternBlanks = false);
  // A blank node, or a triple term with one inside.
  bool holdsBlankNode(const Term& t) const;
  // A term without variables, but for blank nodes inside triple terms.
  bool isGroundTripleTerm(const Term& t) const;

 private:
  OpPtr combine(OpPtr current, const ast::Element& e);
  OpPtr triplesBlock(const std::vector<ast::TripleItem>& items);
  OpPtr bindTripleTermParts(OpPtr op);
  OpPtr bindPartsAbove(OpPtr op);
  void bindTemplateTerm(const Term& t, OpPtr& where, Variables& bound);
  bool isBlankVariable(const std::string& name) const;
  TriplePattern withBlankVariables(TriplePattern t, bool inTemplate) const;
  Term withBlankVariable(Term t, bool inTemplate) const;
  void checkBlankScope(const Term& t, Position pos);
  void checkBlankScopes(const TriplePattern& t);
  void liftAggregates(Expr& e, std::vector<Binding>& aggregates);
  void checkGrouped(const Expr& e, const Variables& visible) const;
  [[noreturn]] void fail(Position pos, std::string message) const;

  std::string_view text_;
  FreshNames& fresh_;
  int scopeCounter_ = 0;
  int bgpScope_ = 0;                        // id of the basic graph pattern being read
  std::map<std::string, int> blankScopes_;  // blank label -> the BGP that uses it
  std::map<std::string, TripleTermPattern> tripleTerms_;  // by the variable standing for it
  std::map<std::string, std::string> tripleTermsByText_;  // text (and context) -> variable
  std::map<std::string, std::string> blankVariables_;     // "p:" or "t:" (pattern, template) + label -> variable
  std::map<std::string, std::string> blankLabels_;        // variable -> label
  std::string textOf(const Term& part) const;
};

}  // namespace gsparql::sparql
