#pragma once
// Entry point of the parser module: SPARQL 1.1 Query text -> algebra.
#include <string_view>

#include "parser/algebra.h"
#include "parser/syntax_error.h"

namespace gsparql::sparql {

// Deeper nesting of ( [ { is rejected with a SyntaxError rather than risking
// the stack of the recursive-descent parser.
inline constexpr int kMaxNestingDepth = 200;

inline constexpr const char* kUpdateNotSupported = "SPARQL Update is not supported (only SPARQL 1.1 Query)";

// Parses one query (UTF-8). Throws SyntaxError for any invalid input,
// including SPARQL Update requests, which are not supported.
Query parseQuery(std::string_view text);

}  // namespace gsparql::sparql
