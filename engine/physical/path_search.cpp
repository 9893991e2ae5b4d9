#include "engine/physical/path_search.h"

#include <algorithm>
#include <map>
#include <span>
#include <utility>

#include "storage/graph_store.h"

namespace gsparql::engine {

namespace {

using Kind = sparql::Path::Kind;

pcsr::Direction reverse(pcsr::Direction d) {
  return d == pcsr::Direction::Out ? pcsr::Direction::In : pcsr::Direction::Out;
}

void append(std::span<const uint32_t> nodes, std::vector<uint32_t>& out) {
  out.insert(out.end(), nodes.begin(), nodes.end());
}

void sortUnique(std::vector<uint32_t>& nodes, size_t from = 0) {
  std::sort(nodes.begin() + from, nodes.end());
  nodes.erase(std::unique(nodes.begin() + from, nodes.end()), nodes.end());
}

}  // namespace

PathSearch::PathSearch(const sparql::Path& path, TermCodec& codec, GraphMerge graph, const QueryLimits& limits)
    : codec_(codec), graph_(std::move(graph)), vertexCount_(static_cast<uint32_t>(codec.store().catalog().vertexCount)),
      limits_(limits), stop_(limits) {
  compile(path);
  visited_.resize(steps_.size());
}

uint32_t PathSearch::compile(const sparql::Path& path) {
  if (path.kind == Kind::NegatedSet) return compileNegatedSet(path);
  const auto index = static_cast<uint32_t>(steps_.size());
  steps_.emplace_back(path.kind);
  if (path.kind == Kind::Link) {
    for (uint32_t g : graph_) {
      if (auto p = codec_.store().graphs().predicate(g, path.iri)) steps_[index].predicates.push_back(*p);
    }
  }
  for (const sparql::Path& arg : path.args) {
    const uint32_t child = compile(arg);  // may reallocate steps_: index, not a reference
    steps_[index].args.push_back(child);
  }
  return index;
}

// !(p1|...|^q1|...) is, per section 18.2.2.5, the forward edges whose
// predicate is no pi, union the inverse edges whose predicate is no qi; a
// part is present only when it has items, except that the empty set `!()`
// is read as the forward part excluding nothing (every edge).
uint32_t PathSearch::compileNegatedSet(const sparql::Path& path) {
  const NamedGraphs& graphs = codec_.store().graphs();
  const uint32_t predicateCount = codec_.store().adjacency(Direction::Out).predicateCount();
  // Indexed by canonical ids (one per IRI, whatever its graph).
  std::vector<bool> excluded[2] = {std::vector<bool>(predicateCount), std::vector<bool>(predicateCount)};
  bool hasItems[2] = {false, false};
  for (const sparql::Path& item : path.args) {
    const bool inverse = item.kind == Kind::Inverse;
    const sparql::Path& link = inverse ? item.args.at(0) : item;
    hasItems[inverse] = true;
    // An IRI that is no predicate of the data excludes no edge.
    if (auto p = graphs.canonicalPredicate(link.iri)) excluded[inverse][*p] = true;
  }
  const bool present[2] = {hasItems[0] || !hasItems[1], hasItems[1]};
  std::map<uint32_t, std::vector<uint32_t>> idsOfIri;  // canonical id -> the ids in the merged graphs
  for (uint32_t g : graph_) {
    for (uint32_t p : graphs.predicates(g)) idsOfIri[graphs.canonical(p)].push_back(p);
  }
  Step step(Kind::NegatedSet);
  for (int part = 0; part < 2; ++part) {
    if (!present[part]) continue;
    for (const auto& [iri, ids] : idsOfIri) {
      if (!excluded[part][iri]) step.allowed[part].push_back(ids);
    }
  }
  steps_.push_back(std::move(step));
  return static_cast<uint32_t>(steps_.size() - 1);
}

void PathSearch::evaluate(std::optional<ValueId> subject, std::optional<ValueId> object,
                          std::vector<std::pair<ValueId, ValueId>>& out) const {
  if (!subject && !object) return allPairs(out);
  std::vector<ValueId> ends;
  if (subject) {
    objectsOf(*subject, ends);
    for (ValueId o : ends) {
      if (!object || o == *object) out.emplace_back(*subject, o);
    }
  } else {
    subjectsOf(*object, ends);
    for (ValueId s : ends) out.emplace_back(s, *object);
  }
}

void PathSearch::objectsOf(ValueId subject, std::vector<ValueId>& out) const {
  fromEnd(subject, Direction::Out, out);
}

void PathSearch::subjectsOf(ValueId object, std::vector<ValueId>& out) const {
  fromEnd(object, Direction::In, out);
}

void PathSearch::fromEnd(ValueId end, Direction d, std::vector<ValueId>& out) const {
  std::vector<uint32_t> reached;
  successors(0, codec_.vertexOf(end).value_or(kAbsent), d, reached);
  for (uint32_t node : reached) out.push_back(node == kAbsent ? end : codec_.fromVertex(node));
}

// Both ends free: a search from every vertex that may start a match. A root
// * or ? also pairs every other vertex with itself, without a search.
void PathSearch::allPairs(std::vector<std::pair<ValueId, ValueId>>& out) const {
  const Step& root = steps_[0];
  const bool zeroLength = root.kind == Kind::ZeroOrMore || root.kind == Kind::ZeroOrOne;
  const auto starts = sources(zeroLength ? root.args[0] : 0, Direction::Out);
  std::vector<uint32_t> reached;
  auto searchFrom = [&](uint32_t v) {
    reached.clear();
    successors(0, v, Direction::Out, reached);
    for (uint32_t w : reached) out.emplace_back(codec_.fromVertex(v), codec_.fromVertex(w));
    limits_.checkMemory(out.capacity() * sizeof(out[0]), "the pairs of a property path");
  };
  if (!starts) {
    for (uint32_t v : graphNodes()) searchFrom(v);
  } else if (!zeroLength) {
    for (uint32_t v : *starts) searchFrom(v);
  } else {
    auto next = starts->begin();
    for (uint32_t v : graphNodes()) {
      if (next != starts->end() && *next == v) {
        ++next;
        searchFrom(v);
      } else {
        out.emplace_back(codec_.fromVertex(v), codec_.fromVertex(v));
      }
    }
  }
}

std::vector<uint32_t> PathSearch::graphNodes() const {
  std::vector<uint32_t> nodes;
  for (Direction d : {Direction::Out, Direction::In}) {
    const AdjacencyFile& file = codec_.store().adjacency(d);
    for (uint32_t g : graph_) {
      for (uint32_t p : codec_.store().graphs().predicates(g)) append(file.predicate(p).keys(), nodes);
    }
  }
  sortUnique(nodes);
  return nodes;
}

void PathSearch::successors(uint32_t s, uint32_t node, Direction d, std::vector<uint32_t>& out) const {
  const Step& step = steps_[s];
  switch (step.kind) {
    case Kind::Link:
      return neighbours(step.predicates, node, d, out);
    case Kind::Inverse:
      return successors(step.args[0], node, reverse(d), out);
    case Kind::Sequence:
      return sequenceSuccessors(step, node, d, out);
    case Kind::Alternative:
      for (uint32_t arg : step.args) successors(arg, node, d, out);
      return;
    case Kind::ZeroOrOne: {
      const size_t from = out.size();
      out.push_back(node);
      successors(step.args[0], node, d, out);
      return sortUnique(out, from);
    }
    case Kind::ZeroOrMore:
    case Kind::OneOrMore:
      return closureSuccessors(s, node, d, out);
    case Kind::NegatedSet:
      return negatedSetSuccessors(step, node, d, out);
  }
}

// A join over fresh intermediate nodes: every route counts, so the frontier
// keeps repeated nodes. Walking backwards takes the parts in reverse order.
void PathSearch::sequenceSuccessors(const Step& step, uint32_t node, Direction d,
                                    std::vector<uint32_t>& out) const {
  std::vector<uint32_t> frontier{node}, next;
  auto walk = [&](uint32_t arg) {
    next.clear();
    for (uint32_t from : frontier) successors(arg, from, d, next);
    frontier.swap(next);
  };
  if (d == Direction::Out) {
    std::for_each(step.args.begin(), step.args.end(), walk);
  } else {
    std::for_each(step.args.rbegin(), step.args.rend(), walk);
  }
  append(frontier, out);
}

// Breadth-first search over the inner step, with `out` itself as the queue:
// each node is appended once, when first reached, and expanded in turn. A
// step is never nested in itself, so its visited set is free during the search.
void PathSearch::closureSuccessors(uint32_t s, uint32_t node, Direction d, std::vector<uint32_t>& out) const {
  const Step& step = steps_[s];
  Visited& visited = visited_[s];
  beginVisit(visited);
  std::vector<uint32_t> oneStep;
  auto expand = [&](uint32_t from) {
    oneStep.clear();
    successors(step.args[0], from, d, oneStep);
    for (uint32_t to : oneStep) {
      if (visit(visited, to)) out.push_back(to);
    }
  };
  const size_t queued = out.size();
  if (step.kind == Kind::ZeroOrMore) {
    visit(visited, node);
    out.push_back(node);
  } else {
    expand(node);  // + reaches its start only through a cycle
  }
  for (size_t i = queued; i < out.size(); ++i) expand(out[i]);
}

void PathSearch::negatedSetSuccessors(const Step& step, uint32_t node, Direction d,
                                      std::vector<uint32_t>& out) const {
  for (int part = 0; part < 2; ++part) {
    for (const auto& ids : step.allowed[part]) neighbours(ids, node, part == 0 ? d : reverse(d), out);
  }
}

void PathSearch::neighbours(std::span<const uint32_t> predicates, uint32_t node, Direction d,
                            std::vector<uint32_t>& out) const {
  if (node == kAbsent) return;
  const size_t from = out.size();
  const AdjacencyFile& file = codec_.store().adjacency(d);
  for (uint32_t p : predicates) append(file.predicate(p).neighbours(node), out);
  stop_(static_cast<int64_t>(1 + predicates.size() + out.size() - from));
  if (predicates.size() > 1) sortUnique(out, from);  // a triple in several of the graphs is one triple of their merge
}

std::optional<std::vector<uint32_t>> PathSearch::sources(uint32_t s, Direction d) const {
  const Step& step = steps_[s];
  const GraphStore& store = codec_.store();
  switch (step.kind) {
    case Kind::Link: {
      std::vector<uint32_t> all;
      for (uint32_t p : step.predicates) append(store.adjacency(d).predicate(p).keys(), all);
      if (step.predicates.size() > 1) sortUnique(all);
      return all;
    }
    case Kind::Inverse:
      return sources(step.args[0], reverse(d));
    case Kind::Sequence:
      return sources(d == Direction::Out ? step.args.front() : step.args.back(), d);
    case Kind::Alternative: {
      std::vector<uint32_t> all;
      for (uint32_t arg : step.args) {
        auto some = sources(arg, d);
        if (!some) return std::nullopt;
        append(*some, all);
      }
      sortUnique(all);
      return all;
    }
    case Kind::ZeroOrOne:
    case Kind::ZeroOrMore:
      return std::nullopt;
    case Kind::OneOrMore:
      return sources(step.args[0], d);
    case Kind::NegatedSet: {
      std::vector<uint32_t> all;
      for (int part = 0; part < 2; ++part) {
        const AdjacencyFile& file = store.adjacency(part == 0 ? d : reverse(d));
        for (const auto& ids : step.allowed[part]) {
          for (uint32_t p : ids) append(file.predicate(p).keys(), all);
        }
      }
      sortUnique(all);
      return all;
    }
  }
  return std::nullopt;
}

void PathSearch::beginVisit(Visited& visited) const {
  if (visited.stamps.size() != vertexCount_) visited.stamps = ZeroedArray<uint32_t>(vertexCount_);
  if (++visited.epoch == 0) {  // wrapped: stamps of old searches would look current
    visited.stamps = ZeroedArray<uint32_t>(vertexCount_);
    visited.epoch = 1;
  }
  visited.absentSeen = false;
}

bool PathSearch::visit(Visited& visited, uint32_t node) {
  if (node == kAbsent) return !std::exchange(visited.absentSeen, true);
  if (visited.stamps[node] == visited.epoch) return false;
  visited.stamps[node] = visited.epoch;
  return true;
}

}  // namespace gsparql::engine
