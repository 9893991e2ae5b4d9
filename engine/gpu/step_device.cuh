#pragma once
// What one join step means on the device, shared by the light path
// (fused_step.cu) and the general path (join_kernels.cu): a row's candidate
// list, and whether a candidate satisfies every filter and edge of the step.
#include "engine/gpu/join_step.cuh"

namespace gsparql::engine::gpu {

__device__ inline List candidatesOf(const StepArgs& s, uint32_t row) {
  switch (s.source) {
    case Source::Constant: return {nullptr, 1};
    case Source::Keys: return {s.driver.keys, s.driver.keyCount};
    case Source::RowPredicateKeys: return keysOfPredicate(s.all, s.driverColumn[row]);
    case Source::Neighbours: return lookup(s.driver, s.driverColumn[row], s.plainCsr);
    case Source::DistinctNeighbours: return distinctNeighboursOf(s.all, s.driverColumn[row]);
    case Source::AllVertices: return {nullptr, s.vertexCount};
    case Source::PredicatesBetween: return predicatesBetween(s.all, s.driverColumn[row], s.targetColumn[row]);
  }
  return {};
}

__device__ inline uint32_t candidateAt(const StepArgs& s, List list, uint32_t i) {
  if (s.source == Source::Constant) return s.constant;
  return s.source == Source::AllVertices ? i : list.data[i];
}

__device__ inline bool inCandidateSets(const StepArgs& s, uint32_t c) {
  for (int i = 0; i < s.candidateSetCount; ++i) {
    if (!bitSet(s.candidateSets[i], c)) return false;
  }
  return true;
}

__device__ inline bool usedEarlier(const StepArgs& s, uint32_t row, uint32_t c) {
  for (int i = 0; i < s.earlierCount; ++i) {
    if (s.earlier[i][row] == c) return true;
  }
  return false;
}

// The neighbour lists a row's candidates are probed against, looked up once
// per row (self-loops are looked up per candidate).
struct RowProbes {
  List lists[kMaxChecks];
};

__device__ inline RowProbes probesOf(const StepArgs& s, uint32_t row) {
  RowProbes p;
  for (int i = 0; i < s.checkCount; ++i) {
    if (s.checks[i].boundColumn) p.lists[i] = lookup(s.checks[i].adjacency, s.checks[i].boundColumn[row], s.plainCsr);
  }
  return p;
}

__device__ inline uint32_t valueOf(const uint32_t* column, uint32_t row, uint32_t candidate) {
  return column ? column[row] : candidate;
}

// Edges with predicate variables and predicate variables that name vertices:
// rare, so probed per candidate without staging.
__device__ inline bool passesPredicateProbes(const StepArgs& s, uint32_t row, uint32_t c) {
  for (int i = 0; i < s.pairCount; ++i) {
    const PairProbe& p = s.pairs[i];
    List between = predicatesBetween(p.adjacency, valueOf(p.from, row, c), valueOf(p.to, row, c));
    if (!containsSorted(between, valueOf(p.predicate, row, c))) return false;
  }
  for (int i = 0; i < s.predicateVertexCount; ++i) {
    const PredicateVertexProbe& p = s.predicateVertices[i];
    if (s.predicateVertexIds[valueOf(p.predicate, row, c)] != valueOf(p.vertex, row, c)) return false;
  }
  return true;
}

__device__ inline bool passes(const StepArgs& s, const RowProbes& p, uint32_t row, uint32_t c) {
  if (!inCandidateSets(s, c)) return false;
  if (s.injective && usedEarlier(s, row, c)) return false;
  for (int i = 0; i < s.checkCount; ++i) {
    List list = s.checks[i].boundColumn ? p.lists[i] : lookup(s.checks[i].adjacency, c, s.plainCsr);
    if (!containsSorted(list, c)) return false;
  }
  return passesPredicateProbes(s, row, c);
}

}  // namespace gsparql::engine::gpu
