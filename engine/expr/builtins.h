#pragma once
// The function library as tables of plain functions. Every function here is
// strict: the node calling it evaluates all arguments first and gives an
// error when one fails, so a function sees only terms. The forms that see
// errors or evaluate lazily (||, &&, IF, COALESCE, IN, BOUND, EXISTS) live
// in expression.cpp.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/expr/expression.h"
#include "engine/expr/terms.h"

namespace gsparql::engine::expr {

struct Arg {
  std::string_view text;  // the term as given
  const TermValue& term;  // its parts (empty for a function that reads only the text)
};

// What one evaluate() call shares between its function calls.
struct CallContext {
  Environment& environment;
  // BNODE(str) without Environment::blankNodeFor: one blank node per string
  // within one evaluation.
  std::unordered_map<std::string, std::string> blankNodes;
};

using BuiltinFn = Result (*)(const std::vector<Arg>& args, CallContext& context);
// A function whose value is a boolean, deciding it without writing the
// boolean's term: FILTER, &&, || and ! want only the effective boolean value,
// and writing "true"^^xsd:boolean to read it back led a term-test filter's
// profile (issue 44). nullopt: an error.
using TestFn = std::optional<bool> (*)(const std::vector<Arg>& args, CallContext& context);

struct Builtin {
  std::string_view name;
  BuiltinFn fn;
  size_t minArgs;
  size_t maxArgs;
  // Its result depends on its arguments alone (not on the query's base,
  // clock or randomness): with constant arguments it is computed once, when
  // the expression is compiled.
  bool pure = true;
  // For functions whose value is a boolean: the same function, deciding it.
  TestFn test = nullptr;
  // It reads only Arg::text, so the arguments are not split into their parts.
  bool readsTextOnly = false;
  // It reads only the first characters of its argument's text (a test of
  // the term's kind): cheaper to compute than to look up in a memo.
  bool readsFirstCharacters = false;
  // The logical negation (!): the effective boolean value is negated without
  // writing a term, along a chain of any length.
  bool negates = false;
};

// The term of a test's decision.
template <TestFn Test>
Result decidedTerm(const std::vector<Arg>& args, CallContext& context) {
  const std::optional<bool> decision = Test(args, context);
  if (!decision) return std::nullopt;
  return booleanTerm(*decision);
}

// A Builtin whose value is the boolean `Test` decides.
template <TestFn Test>
Builtin predicate(std::string_view name, size_t minArgs, size_t maxArgs, bool readsTextOnly = false) {
  return {name, decidedTerm<Test>, minArgs, maxArgs, true, Test, readsTextOnly};
}

// The strict function named `name` (an operator, a built-in name, or the
// IRI term of a cast function), nullptr when there is none.
const Builtin* findBuiltin(std::string_view name);

// The tables each family file provides.
std::vector<Builtin> operatorBuiltins();   // operators.cpp: comparison, arithmetic, numeric, date
std::vector<Builtin> stringBuiltins();     // strings.cpp
std::vector<Builtin> termBuiltins();       // term_functions.cpp
std::vector<Builtin> hashBuiltins();       // hashes.cpp
std::vector<Builtin> castBuiltins();       // casts.cpp
std::vector<Builtin> geoBuiltins();        // geo.cpp: GeoSPARQL's geof: functions
// geo.cpp: GeoSPARQL 1.1's aggregates (sparql::isExtensionAggregate), by
// their IRI terms; nullptr for any other name.
std::unique_ptr<Aggregator> geoAggregator(std::string_view name);

}  // namespace gsparql::engine::expr
