#pragma once
// Evaluates one SPARQL 1.1 property path over the data graph (section 18.4):
// links, inverses, sequences, alternatives and negated property sets keep
// the multiplicities of the spec's bag semantics; *, + and ? give sets of
// distinct pairs. Arbitrary-length paths are breadth-first searches over the
// inner path's one-step relation, with one epoch-stamped visited vector per
// closure reused across searches, so cycles terminate and a search costs
// what it reaches.
//
// A PathSearch keeps that scratch state between calls: use one per thread.
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "engine/bgp/query_limits.h"
#include "engine/physical/zeroed_array.h"
#include "engine/value/term_codec.h"
#include "engine/value/value_id.h"
#include "parser/algebra.h"
#include "storage/named_graphs.h"
#include "storage/pcsr_format.h"

namespace gsparql::engine {

class PathSearch {
 public:
  // Over the merge of graphs of the store (storage/named_graphs.h): a link
  // reaches a node once however many of the graphs hold the triple.
  // Searches check `limits` as they go (a search from every vertex can
  // reach every other: a product of the vertices).
  PathSearch(const sparql::Path& path, TermCodec& codec, GraphMerge graph, const QueryLimits& limits);

  // Appends the (subject, object) pairs of the path; a given end restricts
  // it to that term, which may be absent from the data (then only
  // zero-length paths match it).
  void evaluate(std::optional<ValueId> subject, std::optional<ValueId> object,
                std::vector<std::pair<ValueId, ValueId>>& out) const;
  // The objects reachable from one subject (a bag), for joins that bind the
  // subject row by row.
  void objectsOf(ValueId subject, std::vector<ValueId>& out) const;
  // The subjects that reach one object (a bag).
  void subjectsOf(ValueId object, std::vector<ValueId>& out) const;

 private:
  // Graph nodes are vertex ids; kAbsent stands for the one constant end of a
  // search that is no vertex, which only zero-length steps can reach.
  static constexpr uint32_t kAbsent = 0xFFFFFFFFu;
  using Direction = pcsr::Direction;

  // The path compiled to a flat tree; steps_[0] is the root.
  struct Step {
    explicit Step(sparql::Path::Kind k) : kind(k) {}
    sparql::Path::Kind kind;
    // Link: its ids in the graphs that have it (none if not in the data).
    std::vector<uint32_t> predicates;
    std::vector<uint32_t> args;  // children's indices into steps_
    // NegatedSet: the predicates of the forward and inverse parts, the ids of
    // one IRI (one per graph that has it) together.
    std::vector<std::vector<uint32_t>> allowed[2];
  };
  // A visited set for the searches of one closure step.
  struct Visited {
    ZeroedArray<uint32_t> stamps;  // per vertex: the epoch it was last reached in
    uint32_t epoch = 0;
    bool absentSeen = false;
  };

  uint32_t compile(const sparql::Path& path);
  uint32_t compileNegatedSet(const sparql::Path& path);

  // Appends the nodes one application of step `s` leads to from `node`
  // (Out: as subject to objects; In: as object to subjects), as a bag.
  void successors(uint32_t s, uint32_t node, Direction d, std::vector<uint32_t>& out) const;
  void sequenceSuccessors(const Step& step, uint32_t node, Direction d, std::vector<uint32_t>& out) const;
  void closureSuccessors(uint32_t s, uint32_t node, Direction d, std::vector<uint32_t>& out) const;
  void negatedSetSuccessors(const Step& step, uint32_t node, Direction d, std::vector<uint32_t>& out) const;
  // Sorted vertices that may start a non-empty match of step `s` in
  // direction `d`; nullopt when every vertex may (zero-length steps).
  std::optional<std::vector<uint32_t>> sources(uint32_t s, Direction d) const;

  void allPairs(std::vector<std::pair<ValueId, ValueId>>& out) const;
  // The graph's nodes, sorted: the subjects and objects of its triples.
  std::vector<uint32_t> graphNodes() const;
  void fromEnd(ValueId end, Direction d, std::vector<ValueId>& out) const;
  // The neighbours of `node` by any of `predicates`, once each when there are several.
  void neighbours(std::span<const uint32_t> predicates, uint32_t node, Direction d, std::vector<uint32_t>& out) const;
  void beginVisit(Visited& visited) const;
  static bool visit(Visited& visited, uint32_t node);

  TermCodec& codec_;
  GraphMerge graph_;
  std::vector<Step> steps_;
  uint32_t vertexCount_;
  mutable std::vector<Visited> visited_;  // per step; used by closure steps only
  const QueryLimits& limits_;
  mutable StopCheck stop_;  // counts the nodes searches reach
};

}  // namespace gsparql::engine
