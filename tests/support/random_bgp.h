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
// A variable of the case's patterns at subject or object only (one VALUES or
// a path can limit), chosen at random; empty if there is none.
std::string randomVertexVariable(const RandomCase& c, std::mt19937& random);
// Two to four distinct vertex terms of the random graphs (and one absent from them), at random.
std::vector<std::string> randomVertexTerms(std::mt19937& random);
// The case's query with `VALUES ?variable { values }` in its group.
std::string withValues(const RandomCase& c, const std::string& variable, const std::vector<std::string>& values);
std::string toNTriples(const std::vector<StringTriple>& graph);
// The default graph's triples (graphs[0]), then graphs[i]'s as quads in named graph names[i - 1].
std::string toNQuads(const std::vector<std::vector<StringTriple>>& graphs, const std::vector<std::string>& names);
// Writes `graph` under `dir` and loads it; returns the database folder.
std::filesystem::path loadGraph(const std::filesystem::path& dir, const std::vector<StringTriple>& graph);

// Solutions projected on `variables` (bag), each row as a tab-joined line,
// sorted. `injective`: distinct query vertices match distinct terms.
std::vector<std::string> bruteForce(const RandomCase& c, const std::vector<std::string>& variables, bool injective);

}  // namespace gsparql::test
