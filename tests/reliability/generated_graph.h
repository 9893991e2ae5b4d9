#pragma once
// Generated N-Triples for the reliability tests: nothing from ../shared, and
// every triple distinct, so a graph's size says which loads it holds.
#include <cstdint>
#include <random>
#include <string>

namespace gsparql::test {

// `count` triples over subjects and objects numbered from `first`: IRIs that
// join (object of one, subject of another), plain, language-tagged and typed
// literals, and blank nodes, spread over eight predicates.
inline std::string generatedTriples(uint64_t seed, int first, int count) {
  std::mt19937_64 rng(seed);
  std::string out;
  for (int i = first; i < first + count; ++i) {
    std::string s = "<http://r.example/s" + std::to_string(i) + ">";
    std::string p = "<http://r.example/p" + std::to_string(rng() % 8) + ">";
    std::string o;
    switch (rng() % 5) {
      case 0: o = "<http://r.example/s" + std::to_string(first + rng() % count) + ">"; break;
      case 1: o = "\"text " + std::to_string(i) + "\""; break;
      case 2: o = "\"mot " + std::to_string(i) + "\"@fr"; break;
      case 3: o = "\"" + std::to_string(i) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>"; break;
      default: o = "_:b" + std::to_string(i); break;
    }
    out += s + " " + p + " " + o + " .\n";
  }
  return out;
}

}  // namespace gsparql::test
