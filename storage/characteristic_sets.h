#pragma once
// Characteristic sets (Neumann, Moerkotte: ICDE 2011; RDF-3X): the subjects
// grouped by the exact set of their outgoing predicates. Found from the
// outgoing adjacency in two passes: each subject's set as a 64-bit
// signature (an xor of its predicates' hashes), then, for the largest sets,
// the triples of each predicate. Memory: 8 bytes per vertex, plus the sets.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/adjacency.h"
#include "storage/catalog.h"

namespace gsparql {

// Sets kept per generation: the largest by subjects; estimates over the
// others treat them as absent.
inline constexpr size_t kKeptCharacteristicSets = 4096;

// The `keep` largest sets, by subjects (ties: by signature), of the
// adjacency `out` (Direction::Out) over vertices below `vertexCount`.
std::vector<CharacteristicSet> findCharacteristicSets(const AdjacencyFile& out, uint64_t vertexCount, size_t keep);

}  // namespace gsparql
