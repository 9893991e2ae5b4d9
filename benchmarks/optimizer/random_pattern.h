#pragma once
// Random BGPs drawn from the data: a pattern grown edge by edge along
// triples that exist (so it has at least the solution it was drawn from),
// from a random triple; each new edge leaves a vertex already in the pattern
// in either direction, or closes a cycle between two of them where the data
// has an edge. Vertices become variables, the first one a constant in
// `anchored` patterns.
#include <cstdint>
#include <random>
#include <string>

namespace gsparql {
class GraphStore;
}

namespace gsparql::benchmarks {

struct PatternShape {
  int edges = 5;
  bool anchored = false;
  double cycleChance = 0.2;  // of each edge after the second: try to close a cycle first
};

// SELECT * { ... } with `shape.edges` triple patterns, or "" where the walk
// got stuck (a vertex without edges).
std::string randomPattern(const GraphStore& store, const PatternShape& shape, std::mt19937_64& random);

}  // namespace gsparql::benchmarks
