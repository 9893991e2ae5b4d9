#pragma once
// A Query as text, all of it (algebra with positions, form, base, prefixes,
// dataset): the BGP reader's test and the parse fuzzer compare parseQuery's
// two ways by it (parser/src/parse_paths.h).
#include <string>

#include "parser/algebra.h"
#include "parser/print.h"

namespace gsparql::sparql::fuzz {

inline std::string describedQuery(const Query& q) {
  std::string out = algebraToString(q);
  out += "\nform " + std::to_string(static_cast<int>(q.form)) + " at " + std::to_string(q.pos.line) + ":" +
         std::to_string(q.pos.column) + "\nbase " + q.base;
  for (const auto& [prefix, iri] : q.prefixes) out += "\nprefix " + prefix + " " + iri;
  for (const auto& g : q.fromGraphs) out += "\nfrom " + g;
  for (const auto& g : q.fromNamedGraphs) out += "\nfrom named " + g;
  return out;
}

}  // namespace gsparql::sparql::fuzz
