#include "storage/adjacency_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "storage/checksum.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

using pcsr::Group;
using pcsr::kNone;
using pcsr::kSlotsPerGroup;

// Keys, their offsets and neighbour lists; the largest degree.
void buildPlainCsr(std::span<const Edge> edges, std::vector<uint32_t>& keys, std::vector<uint32_t>& offsets,
                   std::vector<uint32_t>& neighbours, uint32_t& maxDegree) {
  neighbours.reserve(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    if (i == 0 || edges[i].key != edges[i - 1].key) {
      keys.push_back(edges[i].key);
      offsets.push_back(static_cast<uint32_t>(i));
    }
    neighbours.push_back(edges[i].neighbour);
  }
  offsets.push_back(static_cast<uint32_t>(edges.size()));
  for (size_t k = 0; k + 1 < offsets.size(); ++k) maxDegree = std::max(maxDegree, offsets[k + 1] - offsets[k]);
}

Group emptyGroup() {
  Group g;
  std::fill(std::begin(g.words), std::end(g.words), kNone);
  return g;
}

uint32_t usedSlots(const Group& g) {
  uint32_t n = 0;
  while (n < kSlotsPerGroup && g.words[2 * n] != kNone) ++n;
  return n;
}

// Places each key in its hashed group (or the chain behind it), then lays the
// neighbour lists out in group order so each group's lists are contiguous.
void buildPcsr(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& offsets,
               const std::vector<uint32_t>& neighbours, std::vector<Group>& groups,
               std::vector<uint32_t>& groupNeighbours, uint32_t& longestChain) {
  const auto keyCount = static_cast<uint32_t>(keys.size());
  const uint32_t primaryGroups = pcsr::primaryGroupCount(keyCount);
  groups.assign(primaryGroups, emptyGroup());
  std::vector<uint32_t> keyIndexOfSlot;  // parallel to slots, 15 per group
  keyIndexOfSlot.assign(size_t{primaryGroups} * kSlotsPerGroup, kNone);
  for (uint32_t k = 0; k < keyCount; ++k) {
    uint32_t g = pcsr::primaryGroupOf(keys[k], primaryGroups);
    uint32_t chain = 1;
    while (usedSlots(groups[g]) == kSlotsPerGroup) {
      if (groups[g].words[30] == kNone) {
        groups[g].words[30] = static_cast<uint32_t>(groups.size());
        groups.push_back(emptyGroup());
        keyIndexOfSlot.resize(groups.size() * kSlotsPerGroup, kNone);
      }
      g = groups[g].words[30];
      ++chain;
    }
    uint32_t slot = usedSlots(groups[g]);
    groups[g].words[2 * slot] = keys[k];
    keyIndexOfSlot[size_t{g} * kSlotsPerGroup + slot] = k;
    longestChain = std::max(longestChain, chain);
  }
  groupNeighbours.reserve(neighbours.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    Group& group = groups[g];
    for (uint32_t slot = 0; slot < usedSlots(group); ++slot) {
      uint32_t k = keyIndexOfSlot[g * kSlotsPerGroup + slot];
      group.words[2 * slot + 1] = static_cast<uint32_t>(groupNeighbours.size());
      groupNeighbours.insert(groupNeighbours.end(), neighbours.begin() + offsets[k], neighbours.begin() + offsets[k + 1]);
    }
    group.words[31] = static_cast<uint32_t>(groupNeighbours.size());
  }
}

}  // namespace

AdjacencyWriter::AdjacencyWriter(const std::filesystem::path& path, pcsr::Direction direction)
    : file_(path), direction_(direction) {
  pcsr::FileHeader placeholder{};
  file_.write(&placeholder, sizeof placeholder);
}

AdjacencySection::AdjacencySection(std::span<const Edge> edges) {
  if (edges.size() >= std::numeric_limits<uint32_t>::max()) {
    throw StorageError("a predicate has more than 2^32-1 edges; the adjacency format holds at most that");
  }
  buildPlainCsr(edges, keys_, offsets_, neighbours_, maxDegree_);
  buildPcsr(keys_, offsets_, neighbours_, groups_, groupNeighbours_, longestChain_);
  // In the order the arrays are written.
  blockSums_ = blockSums({std::as_bytes(std::span(keys_)), std::as_bytes(std::span(offsets_)),
                          std::as_bytes(std::span(neighbours_)), std::as_bytes(std::span(groups_)),
                          std::as_bytes(std::span(groupNeighbours_))},
                         pcsr::kCheckBlockBytes);
  checksum_ = sumOfBlockSums(blockSums_);
}

PredicateAdjacency AdjacencySection::view() const {
  pcsr::PredicateSection s{};
  s.keyCount = keyCount();
  s.edgeCount = edgeCount();
  s.groupCount = static_cast<uint32_t>(groups_.size());
  s.maxDegree = maxDegree_;
  s.longestChain = longestChain_;
  s.dataChecksum = checksum_;
  return PredicateAdjacency(s, keys_, offsets_, neighbours_, groups_, groupNeighbours_);
}

template <typename T>
uint64_t AdjacencyWriter::writeAligned(std::span<const T> values) {
  file_.padTo(pcsr::kAlignment);
  uint64_t offset = file_.position();
  file_.writeArray(values);
  return offset;
}

void AdjacencyWriter::writeSection(const AdjacencySection& section) {
  pcsr::PredicateSection s = section.view().section();
  s.keysOffset = writeAligned<uint32_t>(section.keys_);
  s.offsetsOffset = writeAligned<uint32_t>(section.offsets_);
  s.neighboursOffset = writeAligned<uint32_t>(section.neighbours_);
  s.groupsOffset = writeAligned<Group>(section.groups_);
  s.groupNeighboursOffset = writeAligned<uint32_t>(section.groupNeighbours_);
  toc_.push_back(s);
  blockSums_.insert(blockSums_.end(), section.blockSums_.begin(), section.blockSums_.end());
}

void AdjacencyWriter::addPredicate(uint32_t predicateId, const AdjacencySection& section) {
  if (predicateId < toc_.size()) throw StorageError("adjacency predicates must be added in id order");
  while (toc_.size() < predicateId) writeSection(AdjacencySection());
  writeSection(section);
}

void AdjacencyWriter::finish(uint32_t predicateCount) {
  while (toc_.size() < predicateCount) writeSection(AdjacencySection());
  file_.padTo(pcsr::kAlignment);
  pcsr::FileHeader header{};
  std::memcpy(header.magic, pcsr::kMagic, sizeof header.magic);
  header.version = pcsr::kFormatVersion;
  header.direction = static_cast<uint32_t>(direction_);
  header.predicateCount = static_cast<uint32_t>(toc_.size());
  header.tocOffset = file_.position();
  header.tocChecksum = crc32Update(0, std::span<const pcsr::PredicateSection>(toc_));
  file_.writeArray(std::span<const pcsr::PredicateSection>(toc_));
  file_.padTo(sizeof(uint64_t));
  header.blockSumsOffset = file_.position();
  file_.writeArray(std::span<const uint64_t>(blockSums_));
  header.fileSize = file_.position();
  header.headerChecksum = crc32Update(0, &header, offsetof(pcsr::FileHeader, headerChecksum));
  file_.writeAt(0, &header, sizeof header);
  file_.commit();
}

}  // namespace gsparql
