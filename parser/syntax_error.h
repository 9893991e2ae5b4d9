#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "parser/algebra.h"

namespace gsparql::sparql {

// Every rejected query raises this: lexical and grammar errors, and the
// static rules of the recommendation (scoping, grouping, VALUES arity, ...).
// what() reads
//   3:7: syntax error at '}': expected one of VAR1, VAR2, IRIREF
//     WHERE { ?s }
//                ^
class SyntaxError : public std::runtime_error {
 public:
  SyntaxError(std::string_view query, Position pos, std::string message,
              std::string offendingToken = {}, std::string expected = {});

  Position position() const { return pos_; }
  const std::string& message() const { return message_; }
  const std::string& offendingToken() const { return token_; }  // empty when not a token error
  const std::string& expected() const { return expected_; }     // empty when not known

 private:
  Position pos_;
  std::string message_, token_, expected_;
};

}  // namespace gsparql::sparql
