#include "engine/physical/bgp_leaf.h"

#include <cstdio>

#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

std::string vertexName(const BoundBgp& bgp, uint32_t v, const Dictionary& dictionary) {
  const auto& vertex = bgp.vertices[v];
  if (vertex.isBlank) return "_:" + vertex.name;
  if (vertex.isVariable) return "?" + vertex.name;
  const std::string term = vertex.id == kNoId ? "(absent)" : dictionary.term(TermSpace::Vertex, vertex.id);
  return vertex.name.empty() ? term : "?" + vertex.name + " = " + term;  // fixed by a filter or VALUES
}

std::string predicateName(const BoundBgp& bgp, const BoundEdge& e, const Dictionary& dictionary) {
  if (e.predicateIsVariable) return "?" + bgp.predicateVariables[e.predicate];
  return e.predicate == kNoId ? "(absent)" : dictionary.term(TermSpace::Predicate, e.predicate);
}

std::string describeUse(const BoundBgp& bgp, const EdgeUse& use, const Dictionary& dictionary) {
  const BoundEdge& e = bgp.edges[use.edge];
  return vertexName(bgp, e.from, dictionary) + " " + predicateName(bgp, e, dictionary) + " " +
         vertexName(bgp, e.to, dictionary);
}

std::string describeSource(const BoundBgp& bgp, const PlanStep& step, const Dictionary& dictionary) {
  switch (step.source) {
    case CandidateSource::Constant: return "constant";
    case CandidateSource::Constants:
      return "one of " + std::to_string(bgp.vertices[step.vertex].constants.size()) + " constants";
    case CandidateSource::AllVertices: return "all vertices";
    case CandidateSource::PredicateKeys:
      return std::string(step.driver.direction == pcsr::Direction::Out ? "subjects" : "objects") + " of " +
             predicateName(bgp, bgp.edges[step.driver.edge], dictionary);
    case CandidateSource::Neighbours: return "neighbours via " + describeUse(bgp, step.driver, dictionary);
  }
  return "";
}

// How sure a step's estimate is, for EXPLAIN.
std::string estimateNote(const PlanStep& step) {
  switch (step.estimateSource) {
    case EstimateSource::Statistics: return " [estimate: statistics]";
    case EstimateSource::Exact: return " [estimate: exact]";
    case EstimateSource::NoSurvivor:
      return step.estimateBy.empty() ? " [estimate: no walk survived]"
                                     : " [estimate: none of " + step.estimateBy + " survived]";
    case EstimateSource::Walks: {
      char error[24];
      std::snprintf(error, sizeof error, ", +-%.0f%%]", 100 * step.estimateError);
      return " [estimate: " + (step.estimateBy.empty() ? std::string("walks") : step.estimateBy) + error;
    }
  }
  return "";
}

}  // namespace

const BgpLeaf* firstBgpLeaf(const Operator& root) {
  if (const auto* leaf = dynamic_cast<const BgpLeaf*>(&root)) return leaf;
  for (const Operator* child : root.children()) {
    if (const BgpLeaf* leaf = firstBgpLeaf(*child)) return leaf;
  }
  return nullptr;
}

std::string executorNotes(const Operator& root) {
  std::string notes;
  if (const auto* scan = dynamic_cast<const BgpLeaf*>(&root); scan && !scan->executionProfile().note.empty()) {
    notes += scan->executionProfile().note + "\n";
  }
  for (const Operator* child : root.children()) notes += executorNotes(*child);
  return notes;
}

std::vector<std::string> BgpLeaf::details(const GraphStore& store) const {
  const Dictionary& dictionary = store.dictionary();
  std::vector<std::string> lines;
  size_t profiled = 0;
  for (size_t c = 0; c < plan_.components.size(); ++c) {
    lines.push_back("component " + std::to_string(c + 1) + ":");
    const auto& steps = plan_.components[c].steps;
    for (size_t s = 0; s < steps.size(); ++s) {
      const PlanStep& step = steps[s];
      const StepProfile* p = profiled < profile_.steps.size() ? &profile_.steps[profiled++] : nullptr;
      lines.push_back("  " + std::to_string(s + 1) + ". " + vertexName(bgp_, step.vertex, dictionary) + " from " +
                      describeSource(bgp_, step, dictionary) + "; " +
                      rowNumbers(step.estimatedRows, p ? std::optional(p->actualRows) : std::nullopt,
                                 p ? p->milliseconds : 0) +
                      estimateNote(step));
      for (const auto& check : step.checks) lines.push_back("     check " + describeUse(bgp_, check, dictionary));
    }
    if (const size_t leaves = plan_.components[c].countedLeaves()) {
      lines.push_back("  the last " + std::to_string(leaves) + " step(s) counted as products of candidate counts, without rows");
    }
  }
  if (!profile_.note.empty()) lines.push_back(profile_.note);
  // What a first query on a device pays beyond the steps (the cache keeps it after).
  if (profile_.copiedBytes > 0) lines.push_back("copied " + std::to_string(profile_.copiedBytes) + " bytes of adjacency to the device");
  return lines;
}

}  // namespace gsparql::engine
