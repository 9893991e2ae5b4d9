#pragma once
// One SGSI join step on the GPU, as plain data for the kernels: where the new
// vertex's candidates come from, which edges each candidate must satisfy,
// and the columns bound so far.
#include <cstdint>

#include "engine/gpu/kernels.cuh"

namespace gsparql::engine::gpu {

constexpr int kMaxChecks = 8;
constexpr int kMaxColumns = 32;
constexpr uint32_t kChunk = 256;  // candidates per survivor count: the unit of output sizing

// As ColumnSource (column_steps.h), with columns resolved to device arrays.
enum class Source : uint32_t {
  Constant,
  Keys,
  RowPredicateKeys,
  Neighbours,
  DistinctNeighbours,
  AllVertices,
  PredicatesBetween,
};

struct EdgeProbe {
  DeviceAdjacency adjacency;
  const uint32_t* boundColumn = nullptr;  // null: a self-loop, probed with the candidate itself
};

// In the probes below a null column stands for the step's candidate.
struct PairProbe {
  DeviceAllPredicates adjacency;
  const uint32_t *from = nullptr, *predicate = nullptr, *to = nullptr;
};

struct PredicateVertexProbe {
  const uint32_t *predicate = nullptr, *vertex = nullptr;
};

struct StepArgs {
  Source source = Source::Constant;
  uint32_t constant = 0;
  DeviceAdjacency driver;                   // Keys, Neighbours
  DeviceAllPredicates all;                  // RowPredicateKeys, DistinctNeighbours, PredicatesBetween
  const uint32_t* driverColumn = nullptr;   // the bound end (or the predicate, RowPredicateKeys)
  const uint32_t* targetColumn = nullptr;   // PredicatesBetween: the other end
  uint32_t vertexCount = 0;                 // AllVertices
  EdgeProbe checks[kMaxChecks];
  int checkCount = 0;
  PairProbe pairs[kMaxChecks];
  int pairCount = 0;
  PredicateVertexProbe predicateVertices[kMaxChecks];
  int predicateVertexCount = 0;
  const uint32_t* predicateVertexIds = nullptr;
  // Key bitsets of the vertex's edges to vertices bound later: a candidate
  // must be in each (SGSI's filtering). Only a filter: those edges are
  // checked when their other end is bound, so a few suffice.
  const uint32_t* candidateSets[kMaxChecks];
  int candidateSetCount = 0;
  const uint32_t* earlier[kMaxColumns];     // columns of earlier vertices, for injective matching
  int earlierCount = 0;
  bool injective = false;
  bool plainCsr = false;
};

struct Columns {
  const uint32_t* in[kMaxColumns];
  uint32_t* out[kMaxColumns];
  int count = 0;
};

}  // namespace gsparql::engine::gpu
