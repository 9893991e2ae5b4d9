#pragma once
// The graphs of a generation's RDF dataset. Every stored triple belongs to
// the default graph or to one named graph, and the adjacency keeps graphs
// apart: a predicate id names one predicate in one graph. The predicate
// dictionary spells it as the predicate alone in the default graph and as
// "<p> <g>" (the predicate, a space, the graph's name) in named graph <g>.
// So each named graph has its own PCSR per predicate and direction and its
// own statistics, a BGP in one graph reads only that graph's adjacency, and a
// database without named graphs is stored exactly as before. The loader also
// keeps the union of the named graphs, as graph "*" (no IRI or blank node is
// spelled so), for the union-default-graph option: each triple of a named
// graph once more, deduplicated.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gsparql {

class Dictionary;

// Graphs of a store whose merge (the set union of their triples) is one graph
// of a query: one graph, usually; none for an empty graph; several for a
// default graph of several FROM clauses.
using GraphMerge = std::vector<uint32_t>;

// The name of the union of the named graphs in graphPredicateKey.
inline constexpr std::string_view kUnionGraphName = "*";

// The predicate dictionary's key of `predicate` in `graph` (empty: the default
// graph).
std::string graphPredicateKey(std::string_view predicate, std::string_view graph);

struct GraphPredicate {
  std::string_view predicate;  // e.g. <http://xmlns.com/foaf/0.1/name>
  std::string_view graph;      // its graph's name; empty for the default graph
};
// The parts of a graphPredicateKey (a predicate is an IRI: the first "> " ends
// it).
GraphPredicate splitGraphPredicateKey(std::string_view key);

class NamedGraphs {
 public:
  static constexpr uint32_t kDefaultGraph = 0;
  // A graph the dataset does not hold (FROM <absent>): no predicates, no
  // triples.
  static constexpr uint32_t kNoGraph = 0xFFFFFFFFu;

  NamedGraphs() = default;
  // Reads the predicate dictionary's keys; `triples`: of each predicate id.
  NamedGraphs(const Dictionary& dictionary, const std::vector<uint64_t>& triples);

  // Graphs, the default graph (index 0) included. A named graph exists
  // while it has a triple: an emptied one (its predicates stay in the
  // dictionary) is neither named() nor found.
  uint32_t size() const { return static_cast<uint32_t>(graphs_.size()); }
  std::vector<uint32_t> named() const;
  // The union of the named graphs (kNoGraph where there are none).
  uint32_t unionOfNamed() const { return union_; }
  bool isUnion(uint32_t graph) const { return graph == union_ && graph != kNoGraph; }
  // The graph's name as an N-Triples term (IRI or blank node); empty for the
  // default graph.
  const std::string& name(uint32_t graph) const { return graphs_.at(graph).name; }
  std::optional<uint32_t> find(std::string_view name) const;
  uint64_t triples(uint32_t graph) const { return graphs_.at(graph).triples; }
  // The predicate ids of a graph, ascending.
  std::span<const uint32_t> predicates(uint32_t graph) const;
  // The id of the predicate IRI `predicate` in `graph`, if the graph uses it.
  std::optional<uint32_t> predicate(uint32_t graph, std::string_view predicate) const;
  uint32_t graphOf(uint32_t predicateId) const { return graphOfPredicate_.at(predicateId); }
  // The IRI of a predicate id, without its graph.
  const std::string& predicateTerm(uint32_t predicateId) const { return terms_.at(predicateId); }
  // One id for all ids of the same IRI (the lowest), so that a predicate
  // variable's value compares equal across graphs; and that id of an IRI.
  uint32_t canonical(uint32_t predicateId) const { return canonical_.at(predicateId); }
  std::optional<uint32_t> canonicalPredicate(std::string_view predicate) const;

 private:
  struct Graph {
    std::string name;
    std::vector<uint32_t> predicates;
    uint64_t triples = 0;
  };
  std::vector<Graph> graphs_{Graph{}};
  uint32_t union_ = kNoGraph;
  std::unordered_map<std::string, uint32_t> graphIndex_;
  std::vector<uint32_t> graphOfPredicate_;
  std::vector<std::string> terms_;
  std::vector<uint32_t> canonical_;
  std::unordered_map<std::string, uint32_t> canonicalByTerm_;
  // (graph, predicate IRI) -> id
  std::unordered_map<std::string, uint32_t> byGraphAndTerm_;
};

}  // namespace gsparql
