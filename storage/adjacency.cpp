#include "storage/adjacency.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "storage/checksum.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

template <typename T>
std::span<const T> arrayAt(const std::byte* base, uint64_t offset, size_t count) {
  return {reinterpret_cast<const T*>(base + offset), count};
}

void require(bool ok, const std::filesystem::path& path, const std::string& what) {
  if (!ok) throw StorageError("corrupt adjacency file " + path.string() + ": " + what);
}

uint64_t sectionEnd(const pcsr::PredicateSection& s) {
  return std::max({s.keysOffset + 4ull * s.keyCount, s.offsetsOffset + 4ull * (s.keyCount + 1),
                   s.neighboursOffset + 4ull * s.edgeCount, s.groupsOffset + 128ull * s.groupCount,
                   s.groupNeighboursOffset + 4ull * s.edgeCount});
}

}  // namespace

PredicateAdjacency::PredicateAdjacency(const std::byte* base, const pcsr::PredicateSection& s)
    : section_(s),
      keys_(arrayAt<uint32_t>(base, s.keysOffset, s.keyCount)),
      offsets_(arrayAt<uint32_t>(base, s.offsetsOffset, s.keyCount + 1)),
      neighbours_(arrayAt<uint32_t>(base, s.neighboursOffset, s.edgeCount)),
      groupNeighbours_(arrayAt<uint32_t>(base, s.groupNeighboursOffset, s.edgeCount)),
      groups_(arrayAt<pcsr::Group>(base, s.groupsOffset, s.groupCount)) {}

std::span<const uint32_t> PredicateAdjacency::neighbours(uint32_t vertex) const {
  if (section_.keyCount == 0) return {};
  uint32_t g = pcsr::primaryGroupOf(vertex, section_.keyCount);
  while (g != pcsr::kNone) {
    const uint32_t* w = groups_[g].words;
    for (uint32_t slot = 0; slot < pcsr::kSlotsPerGroup && w[2 * slot] != pcsr::kNone; ++slot) {
      if (w[2 * slot] != vertex) continue;
      bool last = slot + 1 == pcsr::kSlotsPerGroup || w[2 * slot + 2] == pcsr::kNone;
      uint32_t end = last ? w[31] : w[2 * slot + 3];
      return groupNeighbours_.subspan(w[2 * slot + 1], end - w[2 * slot + 1]);
    }
    g = w[30];
  }
  return {};
}

std::span<const uint32_t> PredicateAdjacency::neighboursAt(size_t keyIndex) const {
  return neighbours_.subspan(offsets_[keyIndex], offsets_[keyIndex + 1] - offsets_[keyIndex]);
}

std::span<const uint32_t> PredicateAdjacency::neighboursByBinarySearch(uint32_t vertex) const {
  auto it = std::lower_bound(keys_.begin(), keys_.end(), vertex);
  if (it == keys_.end() || *it != vertex) return {};
  return neighboursAt(static_cast<size_t>(it - keys_.begin()));
}

AdjacencyFile::AdjacencyFile(const std::filesystem::path& path) : file_(path) {
  auto bytes = file_.bytes();
  require(bytes.size() >= sizeof(pcsr::FileHeader), path, "shorter than its header");
  pcsr::FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  require(std::memcmp(header.magic, pcsr::kMagic, sizeof header.magic) == 0, path, "bad magic");
  require(header.version == pcsr::kFormatVersion, path,
          "format version " + std::to_string(header.version) + ", expected " +
              std::to_string(pcsr::kFormatVersion));
  require(header.headerChecksum ==
              crc32Update(0, &header, offsetof(pcsr::FileHeader, headerChecksum)),
          path, "header checksum mismatch");
  require(header.fileSize == bytes.size(), path, "truncated");
  uint64_t tocBytes = uint64_t{header.predicateCount} * sizeof(pcsr::PredicateSection);
  require(header.tocOffset + tocBytes <= bytes.size(), path, "table of contents out of range");
  auto toc = arrayAt<pcsr::PredicateSection>(bytes.data(), header.tocOffset, header.predicateCount);
  require(crc32Update(0, toc) == header.tocChecksum, path, "table of contents checksum mismatch");
  direction_ = static_cast<pcsr::Direction>(header.direction);
  predicates_.reserve(toc.size());
  for (const auto& section : toc) {
    require(sectionEnd(section) <= header.tocOffset, path, "section out of range");
    predicates_.emplace_back(bytes.data(), section);
  }
}

void AdjacencyFile::verify() const {
  for (uint32_t p = 0; p < predicateCount(); ++p) {
    const auto& a = predicates_[p];
    uint32_t crc = crc32Update(0, a.keys());
    crc = crc32Update(crc, a.offsets());
    crc = crc32Update(crc, a.neighbours());
    crc = crc32Update(crc, a.groups());
    crc = crc32Update(crc, a.groupNeighbours());
    require(crc == a.section().dataChecksum, file_.path(),
            "data checksum mismatch for predicate " + std::to_string(p));
  }
}

}  // namespace gsparql
