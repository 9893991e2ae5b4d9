#pragma once
// N-Triples for the tests of runaway queries: `vertices` IRIs on a cycle of
// 7 predicates (through a path of any predicate, either way, every vertex
// reaches every other: a closure of vertices^2 pairs) and an integer value
// each (a product of two value patterns has vertices^2 rows).
#include <string>

namespace gsparql::test {

inline std::string cycleGraphWithValues(int vertices) {
  std::string text;
  for (int i = 0; i < vertices; ++i) {
    const std::string s = "<http://e/s" + std::to_string(i) + ">";
    text += s + " <http://e/p" + std::to_string(i % 7) + "> <http://e/s" + std::to_string((i + 1) % vertices) + "> .\n";
    text += s + " <http://e/v> \"" + std::to_string(i) + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  }
  return text;
}

}  // namespace gsparql::test
