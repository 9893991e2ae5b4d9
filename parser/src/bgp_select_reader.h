#pragma once
// The queries sent most, read without the grammar's parser: a SELECT of
// variables or * over one group of triples (variables, IRIs, prefixed names,
// 'a', blank node labels, literals; ';' and ',' lists) with LIMIT and
// OFFSET, after PREFIX and BASE declarations. ANTLR's parser and the tree
// walker take most of such a query's parse, and its parse as long as its
// planning and execution on WatDiv (benchmarks/results/).
//
// The reader builds the same syntax tree as the walker and hands it to the
// same Translator, so the Query is the same, positions included
// (tests/parser/bgp_select_reader_test.cpp and the parse fuzzer compare the
// two). Anything else, and any text with an error, is left to the grammar:
// errors and their messages stay the parser's.
#include <Token.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parser/algebra.h"
#include "parser/src/fresh_names.h"

namespace gsparql::sparql {

// `tokens`: the text's tokens, ending with EOF; `base`: the base IRI before
// the text's own BASE. nullopt where the text is not of the kind read here
// or has an error.
std::optional<Query> readBgpSelect(std::string_view text, const std::vector<antlr4::Token*>& tokens,
                                   FreshNames& fresh, const std::string& base);

}  // namespace gsparql::sparql
