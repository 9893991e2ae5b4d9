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

struct PlainCsr {
  std::vector<uint32_t> keys;
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> neighbours;
  uint32_t maxDegree = 0;
};

PlainCsr buildPlainCsr(std::span<const Edge> edges) {
  PlainCsr csr;
  csr.neighbours.reserve(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    if (i == 0 || edges[i].key != edges[i - 1].key) {
      csr.keys.push_back(edges[i].key);
      csr.offsets.push_back(static_cast<uint32_t>(i));
    }
    csr.neighbours.push_back(edges[i].neighbour);
  }
  csr.offsets.push_back(static_cast<uint32_t>(edges.size()));
  for (size_t k = 0; k + 1 < csr.offsets.size(); ++k) {
    csr.maxDegree = std::max(csr.maxDegree, csr.offsets[k + 1] - csr.offsets[k]);
  }
  return csr;
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

struct Pcsr {
  std::vector<Group> groups;
  std::vector<uint32_t> neighbours;
  uint32_t longestChain = 0;
};

// Places each key in its hashed group (or the chain behind it), then lays the
// neighbour lists out in group order so each group's lists are contiguous.
Pcsr buildPcsr(const PlainCsr& csr) {
  const auto keyCount = static_cast<uint32_t>(csr.keys.size());
  Pcsr out;
  out.groups.assign(keyCount, emptyGroup());
  std::vector<uint32_t> keyIndexOfSlot;  // parallel to slots, 15 per group
  keyIndexOfSlot.assign(size_t{keyCount} * kSlotsPerGroup, kNone);
  for (uint32_t k = 0; k < keyCount; ++k) {
    uint32_t g = pcsr::primaryGroupOf(csr.keys[k], keyCount);
    uint32_t chain = 1;
    while (usedSlots(out.groups[g]) == kSlotsPerGroup) {
      if (out.groups[g].words[30] == kNone) {
        out.groups[g].words[30] = static_cast<uint32_t>(out.groups.size());
        out.groups.push_back(emptyGroup());
        keyIndexOfSlot.resize(out.groups.size() * kSlotsPerGroup, kNone);
      }
      g = out.groups[g].words[30];
      ++chain;
    }
    uint32_t slot = usedSlots(out.groups[g]);
    out.groups[g].words[2 * slot] = csr.keys[k];
    keyIndexOfSlot[size_t{g} * kSlotsPerGroup + slot] = k;
    out.longestChain = std::max(out.longestChain, chain);
  }
  out.neighbours.reserve(csr.neighbours.size());
  for (size_t g = 0; g < out.groups.size(); ++g) {
    Group& group = out.groups[g];
    for (uint32_t slot = 0; slot < usedSlots(group); ++slot) {
      uint32_t k = keyIndexOfSlot[g * kSlotsPerGroup + slot];
      group.words[2 * slot + 1] = static_cast<uint32_t>(out.neighbours.size());
      out.neighbours.insert(out.neighbours.end(), csr.neighbours.begin() + csr.offsets[k],
                            csr.neighbours.begin() + csr.offsets[k + 1]);
    }
    group.words[31] = static_cast<uint32_t>(out.neighbours.size());
  }
  return out;
}

}  // namespace

AdjacencyWriter::AdjacencyWriter(const std::filesystem::path& path, pcsr::Direction direction)
    : file_(path), direction_(direction) {
  pcsr::FileHeader placeholder{};
  file_.write(&placeholder, sizeof placeholder);
}

template <typename T>
uint64_t AdjacencyWriter::writeAligned(std::span<const T> values, uint32_t& crc) {
  file_.padTo(pcsr::kAlignment);
  uint64_t offset = file_.position();
  file_.writeArray(values);
  crc = crc32Update(crc, values);
  return offset;
}

void AdjacencyWriter::writeSection(std::span<const Edge> edges) {
  if (edges.size() >= std::numeric_limits<uint32_t>::max()) {
    throw StorageError("a predicate has more than 2^32-1 edges; the adjacency format holds at most that");
  }
  PlainCsr csr = buildPlainCsr(edges);
  Pcsr hashed = buildPcsr(csr);
  pcsr::PredicateSection s{};
  uint32_t crc = 0;
  s.keysOffset = writeAligned<uint32_t>(csr.keys, crc);
  s.offsetsOffset = writeAligned<uint32_t>(csr.offsets, crc);
  s.neighboursOffset = writeAligned<uint32_t>(csr.neighbours, crc);
  s.groupsOffset = writeAligned<Group>(hashed.groups, crc);
  s.groupNeighboursOffset = writeAligned<uint32_t>(hashed.neighbours, crc);
  s.keyCount = static_cast<uint32_t>(csr.keys.size());
  s.edgeCount = static_cast<uint32_t>(edges.size());
  s.groupCount = static_cast<uint32_t>(hashed.groups.size());
  s.maxDegree = csr.maxDegree;
  s.longestChain = hashed.longestChain;
  s.dataChecksum = crc;
  toc_.push_back(s);
}

void AdjacencyWriter::addPredicate(uint32_t predicateId, std::span<const Edge> edges) {
  if (predicateId < toc_.size()) throw StorageError("adjacency predicates must be added in id order");
  while (toc_.size() < predicateId) writeSection({});
  writeSection(edges);
}

void AdjacencyWriter::finish(uint32_t predicateCount) {
  while (toc_.size() < predicateCount) writeSection({});
  file_.padTo(pcsr::kAlignment);
  pcsr::FileHeader header{};
  std::memcpy(header.magic, pcsr::kMagic, sizeof header.magic);
  header.version = pcsr::kFormatVersion;
  header.direction = static_cast<uint32_t>(direction_);
  header.predicateCount = static_cast<uint32_t>(toc_.size());
  header.tocOffset = file_.position();
  header.tocChecksum = crc32Update(0, std::span<const pcsr::PredicateSection>(toc_));
  file_.writeArray(std::span<const pcsr::PredicateSection>(toc_));
  header.fileSize = file_.position();
  header.headerChecksum = crc32Update(0, &header, offsetof(pcsr::FileHeader, headerChecksum));
  file_.writeAt(0, &header, sizeof header);
  file_.commit();
}

}  // namespace gsparql
