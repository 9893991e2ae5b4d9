#pragma once
// Entry point of the parser module: SPARQL 1.1 Query and Update text -> algebra.
#include <cstddef>
#include <string>
#include <string_view>

#include "parser/algebra.h"
#include "parser/update.h"
#include "parser/syntax_error.h"

namespace gsparql::sparql {

// Deeper nesting of ( [ { is rejected with a SyntaxError rather than risking
// the stack of the recursive-descent parser.
inline constexpr int kMaxNestingDepth = 200;

// Chained operators (`a || b || ...`, `1 + 2 + ...`) and group elements
// (UNION, OPTIONAL, MINUS, BIND, `{}` ...) each wrap what precedes them, so
// the trees that every later stage recurses over are as deep as the chains.
// More than this many along one path from the root is a SyntaxError: 10000
// overflowed the 8 MiB stack when the printers recursed under AddressSanitizer.
inline constexpr int kMaxChainDepth = 2000;

// Longer query texts are rejected before lexing: parsing costs up to about
// 6 us and 300 bytes of memory per byte of query text (2-core development
// machine), so 1 MiB takes seconds and a few hundred MB.
inline constexpr std::size_t kMaxQueryBytes = std::size_t{1} << 20;  // 1 MiB

struct ParseOptions {
  std::size_t maxQueryBytes = kMaxQueryBytes;
  // The base IRI before the text's own BASE (empty: none): relative IRIs
  // resolve against it (a Protocol server's endpoint, as SPARQL 1.1
  // Protocol section 2.1.4 allows).
  std::string base;
};

// What parseQuery() says about an update request; callers that accept both
// (the REPL) try parseUpdate() on it.
inline constexpr const char* kUpdateNotSupported =
    "this is a SPARQL Update request, not a query (run it with `gsparql update` or Database::update)";

// Parses one query (UTF-8). Throws SyntaxError for any invalid input,
// including SPARQL Update requests (kUpdateNotSupported), and text longer
// than options.maxQueryBytes (pass a larger limit to accept one).
Query parseQuery(std::string_view text, const ParseOptions& options = {});

// Parses one SPARQL 1.1 Update request: operations separated by ';'. Throws
// SyntaxError as parseQuery does, also for what the grammar allows and the
// recommendation forbids (variables in INSERT DATA, blank nodes in DELETE).
UpdateRequest parseUpdate(std::string_view text, const ParseOptions& options = {});

// True when the first keyword after the prologue starts an update.
bool isUpdateRequest(std::string_view text);

}  // namespace gsparql::sparql
