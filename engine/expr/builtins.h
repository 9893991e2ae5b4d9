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
  TermValue term;         // its parts
};

// What one evaluate() call shares between its function calls.
struct CallContext {
  Environment& environment;
  // BNODE(str) without Environment::blankNodeFor: one blank node per string
  // within one evaluation.
  std::unordered_map<std::string, std::string> blankNodes;
};

using BuiltinFn = Result (*)(const std::vector<Arg>& args, CallContext& context);

struct Builtin {
  std::string_view name;
  BuiltinFn fn;
  size_t minArgs;
  size_t maxArgs;
  // Its result depends on its arguments alone (not on the query's base,
  // clock or randomness): with constant arguments it is computed once, when
  // the expression is compiled.
  bool pure = true;
};

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

}  // namespace gsparql::engine::expr
