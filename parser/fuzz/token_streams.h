#pragma once
// The tokens of a text as ANTLR's generated lexer makes them and as the
// hand-written tokenizer does, for the test and the fuzzer that hold the
// two to the same tokens, positions and first error.
#include <string>
#include <string_view>
#include <vector>

#include "SparqlLexer.h"
#include "antlr4-runtime.h"
#include "parser/src/tokenizer.h"

namespace gsparql::sparql::fuzz {

struct TokenStream {
  std::vector<std::string> tokens;  // type, code point range, line:column and text of each
  std::string firstError;           // line:column and message; empty when none
  bool operator==(const TokenStream&) const = default;
};

inline std::string describe(antlr4::Token* t) {
  return std::to_string(t->getType()) + " [" + std::to_string(t->getStartIndex()) + "," +
         std::to_string(t->getStopIndex()) + "] " + std::to_string(t->getLine()) + ":" +
         std::to_string(t->getCharPositionInLine()) + " " + t->getText();
}

inline std::vector<std::string> describeAll(antlr4::CommonTokenStream& tokens) {
  tokens.fill();
  std::vector<std::string> out;
  for (antlr4::Token* t : tokens.getTokens()) out.push_back(describe(t));
  return out;
}

class FirstLexerError : public antlr4::BaseErrorListener {
 public:
  void syntaxError(antlr4::Recognizer*, antlr4::Token*, size_t line, size_t column, const std::string& message,
                   std::exception_ptr) override {
    if (first.empty()) first = std::to_string(line) + ":" + std::to_string(column) + " " + message;
  }
  std::string first;
};

inline TokenStream antlrTokens(std::string_view text) {
  antlr4::ANTLRInputStream input(text.data(), text.size());
  gsparql_antlr::SparqlLexer lexer(&input);
  FirstLexerError errors;
  lexer.removeErrorListeners();
  lexer.addErrorListener(&errors);
  antlr4::CommonTokenStream tokens(&lexer);
  auto described = describeAll(tokens);
  return {std::move(described), errors.first};
}

inline TokenStream tokenizerTokens(std::string_view text) {
  CodePointStream input(text.data(), text.size());
  Tokenizer tokenizer(input);
  antlr4::CommonTokenStream tokens(&tokenizer);
  auto described = describeAll(tokens);
  const auto& error = tokenizer.firstError();
  return {std::move(described),
          error ? std::to_string(error->line) + ":" + std::to_string(error->column) + " " + error->message : ""};
}

}  // namespace gsparql::sparql::fuzz
