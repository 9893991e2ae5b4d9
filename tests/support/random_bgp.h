#pragma once
// Small random graphs and random BGPs over them, with a brute-force matcher
// that enumerates every assignment: an oracle independent of the engine.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace gsparql::test {

struct StringTriple {
  std::string s, p, o;
};

// Terms in N-Triples syntax; variables "?name", blank nodes "_:name".
struct RandomCase {
  std::vector<StringTriple> graph;
  std::vector<StringTriple> patterns;
  std::string query;                   // SELECT * WHERE { patterns }
  std::vector<std::string> variables;  // what SELECT * projects, in first-appearance order
};

RandomCase randomCase(std::mt19937& random);
std::string toNTriples(const std::vector<StringTriple>& graph);
// The default graph's triples (graphs[0]), then graphs[i]'s as quads in named graph names[i - 1].
std::string toNQuads(const std::vector<std::vector<StringTriple>>& graphs, const std::vector<std::string>& names);
// Writes `graph` under `dir` and loads it; returns the database folder.
std::filesystem::path loadGraph(const std::filesystem::path& dir, const std::vector<StringTriple>& graph);

// Solutions projected on `variables` (bag), each row as a tab-joined line,
// sorted. `injective`: distinct query vertices match distinct terms.
std::vector<std::string> bruteForce(const RandomCase& c, const std::vector<std::string>& variables, bool injective);

}  // namespace gsparql::test
