#pragma once
// Expressions the walkers build from parts: a term, a call.
#include <string>
#include <utility>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::sparql {

inline Expr termExpr(Term t, Position pos) {
  Expr e;
  e.kind = Expr::Kind::Term;
  e.term = std::move(t);
  e.pos = pos;
  return e;
}

inline Expr call(std::string name, std::vector<Expr> args, Position pos) {
  Expr e;
  e.kind = Expr::Kind::Call;
  e.name = std::move(name);
  e.args = std::move(args);
  e.pos = pos;
  return e;
}

}  // namespace gsparql::sparql
