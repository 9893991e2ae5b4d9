#pragma once
// The checks of one predicate's adjacency data that AdjacencyFile runs before
// handing it out: its checksum, and the rules of pcsr_format.h that lookups
// rely on to stay in bounds and to end: of a whole section (formats 1 to 3),
// in parallel blocks, or of a range of one array (format 4's blocks:
// adjacency_blocks.h).
#include <cstdint>
#include <optional>
#include <string>

#include "storage/adjacency.h"

namespace gsparql {

// The sum of the five arrays, as the writer of a file of format `version`
// (1 to 3) computed the section's dataChecksum: sectionSum in format 3,
// CRC-32 before.
uint32_t adjacencyChecksum(const PredicateAdjacency& adjacency, uint32_t version);

struct Corruption {
  uint64_t offset;  // of the first bad element, from the start of the file
  std::string what;
};

// The first element that breaks a rule, checking vertex ids against
// `vertexCount`: keys ascending, offsets ascending from 0 to the edge count
// with no list longer than the largest degree, every group's slots and
// chain in range.
std::optional<Corruption> findCorruption(const PredicateAdjacency& adjacency, uint64_t vertexCount);
// The same rules for elements [begin, end) of one array of `section`; an
// element is compared with the one before it, whichever block holds it.
std::optional<Corruption> findCorruptionIn(const UncheckedArrays& arrays, const pcsr::PredicateSection& section,
                                           AdjacencyArray array, size_t begin, size_t end, uint64_t vertexCount);

}  // namespace gsparql
