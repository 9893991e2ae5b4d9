#pragma once
// Every checksum of an adjacency file (format 4) made right for its bytes,
// as a buggy writer or a forger would leave them: then only the format's
// rules stand between the bytes and a lookup. For the adjacency fuzzer and
// the corruption tests (tests/storage/corruption_test.cpp).
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "storage/checksum.h"
#include "storage/pcsr_format.h"

namespace gsparql::fuzz {

// Sections whose arrays lie outside `bytes`, and a table of block sums that
// does not fit, keep their old sums: the reader refuses them at open.
inline void resealAdjacency(std::string& bytes) {
  if (bytes.size() < sizeof(pcsr::FileHeader)) return;
  pcsr::FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  const uint64_t tocBytes = uint64_t{header.predicateCount} * sizeof(pcsr::PredicateSection);
  if (header.tocOffset > bytes.size() || tocBytes > bytes.size() - header.tocOffset) return;
  const auto at = [&](uint64_t offset, uint64_t size) {
    return std::span(reinterpret_cast<const std::byte*>(bytes.data()) + offset, size);
  };
  uint64_t firstSum = 0;
  for (uint64_t p = 0; p < header.predicateCount; ++p) {
    const uint64_t entry = header.tocOffset + p * sizeof(pcsr::PredicateSection);
    pcsr::PredicateSection s;
    std::memcpy(&s, bytes.data() + entry, sizeof s);
    const std::pair<uint64_t, uint64_t> arrays[] = {
        {s.keysOffset, 4ull * s.keyCount},        {s.offsetsOffset, 4ull * (s.keyCount + 1ull)},
        {s.neighboursOffset, 4ull * s.edgeCount}, {s.groupsOffset, uint64_t{sizeof(pcsr::Group)} * s.groupCount},
        {s.groupNeighboursOffset, 4ull * s.edgeCount}};
    bool inside = true;
    for (const auto& [offset, size] : arrays) inside = inside && offset <= bytes.size() && size <= bytes.size() - offset;
    uint64_t blocks = 0;
    for (const auto& array : arrays) blocks += pcsr::checkBlockCount(array.second);
    const uint64_t sumsAt = header.blockSumsOffset + firstSum * sizeof(uint64_t);
    firstSum += blocks;
    if (!inside || sumsAt > bytes.size() || blocks * sizeof(uint64_t) > bytes.size() - sumsAt) continue;
    const std::vector<uint64_t> sums = blockSums({at(arrays[0].first, arrays[0].second), at(arrays[1].first, arrays[1].second),
                                                  at(arrays[2].first, arrays[2].second), at(arrays[3].first, arrays[3].second),
                                                  at(arrays[4].first, arrays[4].second)},
                                                 pcsr::kCheckBlockBytes);
    std::memcpy(bytes.data() + sumsAt, sums.data(), sums.size() * sizeof(uint64_t));
    s.dataChecksum = sumOfBlockSums(sums);
    std::memcpy(bytes.data() + entry, &s, sizeof s);
  }
  header.tocChecksum = crc32Update(0, bytes.data() + header.tocOffset, tocBytes);
  header.headerChecksum = crc32Update(0, &header, offsetof(pcsr::FileHeader, headerChecksum));
  std::memcpy(bytes.data(), &header, sizeof header);
}

}  // namespace gsparql::fuzz
