#pragma once
// parseQuery's two ways to a Query, apart, for the tests and the fuzzer that
// compare them: the grammar's parser and the walker, which read every query,
// and the direct reader of the queries sent most (bgp_select_reader.h).
#include <optional>
#include <string_view>

#include "parser/parse.h"

namespace gsparql::sparql {

Query parseQueryWithGrammar(std::string_view text, const ParseOptions& options = {});
// nullopt where the reader leaves the text to the grammar. Throws
// SyntaxError for what every query is checked for first (size, UTF-8,
// tokens, nesting).
std::optional<Query> readQueryDirectly(std::string_view text, const ParseOptions& options = {});

}  // namespace gsparql::sparql
