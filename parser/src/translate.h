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

 private:
  OpPtr combine(OpPtr current, const ast::Element& e);
  OpPtr triplesBlock(const std::vector<ast::TripleItem>& items);
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
};

}  // namespace gsparql::sparql
