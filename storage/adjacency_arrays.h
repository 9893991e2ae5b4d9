#pragma once
// The five arrays of one predicate's adjacency section (pcsr_format.h), as
// mapped from a file, before any check.
#include <cstddef>
#include <cstdint>
#include <span>

#include "storage/pcsr_format.h"

namespace gsparql {

// The five arrays of a predicate's section, in the order a file holds them.
enum class AdjacencyArray : uint8_t { Keys, Offsets, Neighbours, Groups, GroupNeighbours };
inline constexpr size_t kAdjacencyArrays = 5;

// The arrays as the file holds them, before any check: for the checks
// themselves (adjacency_check.h, adjacency_blocks.h), nothing else.
struct UncheckedArrays {
  std::span<const uint32_t> keys, offsets, neighbours;
  std::span<const pcsr::Group> groups;
  std::span<const uint32_t> groupNeighbours;

  std::span<const std::byte> bytes(AdjacencyArray array) const {
    switch (array) {
      case AdjacencyArray::Keys: return std::as_bytes(keys);
      case AdjacencyArray::Offsets: return std::as_bytes(offsets);
      case AdjacencyArray::Neighbours: return std::as_bytes(neighbours);
      case AdjacencyArray::Groups: return std::as_bytes(groups);
      case AdjacencyArray::GroupNeighbours: return std::as_bytes(groupNeighbours);
    }
    return {};
  }
  size_t elementBytes(AdjacencyArray array) const {
    return array == AdjacencyArray::Groups ? sizeof(pcsr::Group) : sizeof(uint32_t);
  }
};

}  // namespace gsparql
