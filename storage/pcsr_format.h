#pragma once
// On-disk and in-memory layout of the adjacency files (one per direction).
// Per predicate there are two views of the same edges:
//  - a plain CSR: sorted keys, offsets, and neighbour lists in key order
//    (scans, binary-search lookups, the CPU executor);
//  - a PCSR as in SGSI: hashed groups of 128 bytes, each holding up to 15
//    (vertex, begin) pairs and one (next group, end) pair, with overflow
//    groups chained after the primary ones and neighbour lists laid out in
//    group order, so a lookup touches one 128-byte line before its list.
//    Format 2 has a primary group per 8 keys; format 1 (still read) had one
//    per key, which left 14 of 15 slots empty.
// Format 3 is format 2 with a faster sum of each section's data (sectionSum
// of storage/checksum.h, XXH3, in place of CRC-32). Format 4 keeps the sums
// of the blocks that sum is made of (4 KiB of one array each) in a table
// after the table of contents, so that a reader checks each block on its
// first use, not a whole section before its first lookup
// (storage/adjacency_blocks.h); 1 to 3 are still read, checked per section.
// This header is shared with CUDA code: keep it plain and header-only.
#include <cstdint>

#if defined(__CUDACC__)
#define GSPARQL_HOST_DEVICE __host__ __device__
#else
#define GSPARQL_HOST_DEVICE
#endif

namespace gsparql::pcsr {

inline constexpr char kMagic[8] = {'G', 'S', 'P', 'C', 'S', 'R', '0', '1'};
inline constexpr uint32_t kFormatVersion = 4;
inline constexpr uint32_t kOldestReadableVersion = 1;
inline constexpr uint32_t kAlignment = 128;
inline constexpr uint32_t kSlotsPerGroup = 15;
inline constexpr uint32_t kWordsPerGroup = 32;
inline constexpr uint32_t kNone = 0xFFFFFFFFu;

enum class Direction : uint32_t { Out = 0, In = 1 };  // Out: subject -> objects

// Words 2i and 2i+1 are slot i's vertex and begin offset (i < 15); word 30
// is the index of the next overflow group (kNone at the end of a chain) and
// word 31 the end offset of the last used slot. Empty slots hold kNone and
// follow the used ones.
struct alignas(kAlignment) Group {
  uint32_t words[kWordsPerGroup];
};
static_assert(sizeof(Group) == 128);

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t direction;
  uint32_t predicateCount;
  uint32_t tocChecksum;       // crc32 of the table of contents
  uint64_t tocOffset;         // array of predicateCount PredicateSection
  uint64_t fileSize;
  // Format 4: the table of block sums, a uint64 XXH3 per block of each
  // array of each section, in table-of-contents order (checkBlockCount);
  // each section's dataChecksum is the low 32 bits of XXH3 of its sums.
  uint64_t blockSumsOffset;
  uint32_t reserved[5];
  uint32_t headerChecksum;    // crc32 of the bytes above
};
static_assert(sizeof(FileHeader) == 72);

// Byte offsets are from the start of the file, each 128-byte aligned.
struct PredicateSection {
  uint64_t keysOffset;            // uint32_t[keyCount], ascending
  uint64_t offsetsOffset;         // uint32_t[keyCount + 1] into the key-ordered neighbours
  uint64_t neighboursOffset;      // uint32_t[edgeCount], key order, each list ascending
  uint64_t groupsOffset;          // Group[groupCount]
  uint64_t groupNeighboursOffset; // uint32_t[edgeCount], group order, each list ascending
  uint32_t keyCount;              // vertices with this predicate in this direction
  uint32_t edgeCount;
  uint32_t groupCount;            // primaryGroupCount() primary groups, then overflow groups
  uint32_t maxDegree;
  uint32_t longestChain;          // most groups visited by one lookup
  uint32_t dataChecksum;          // of the five arrays, in the order above: of their block sums (4),
                                  // sectionSum (3), crc32 (1, 2)
};
static_assert(sizeof(PredicateSection) == 64);

// Format 4's checked blocks: an array is cut into blocks of this many bytes
// (the last one shorter), each array on its own. A page: the optimizer's
// random walks read a group and a list here and there, and with 64 KiB
// blocks a first query still checked most of each array it walked (WatDiv
// SF100's S1: 3.8 ms beyond its warm time, 1.7 ms with 4 KiB). The table of
// sums takes 8 bytes a block, 0.2% of the data.
inline constexpr uint64_t kCheckBlockBytes = uint64_t{1} << 12;
constexpr uint64_t checkBlockCount(uint64_t arrayBytes) {
  return (arrayBytes + kCheckBlockBytes - 1) / kCheckBlockBytes;
}

// fmix32 from MurmurHash3: cheap, and spreads dense ids over the groups.
GSPARQL_HOST_DEVICE constexpr uint32_t hashVertex(uint32_t v) {
  v ^= v >> 16;
  v *= 0x85ebca6bu;
  v ^= v >> 13;
  v *= 0xc2b2ae35u;
  v ^= v >> 16;
  return v;
}

// Keys per primary group on average: 8 of 15 slots, so that about 1% of the
// groups overflow (a Poisson tail) while a key costs 16 bytes of groups, not
// 128. A lookup still reads one 128-byte line.
inline constexpr uint32_t kKeysPerPrimaryGroup = 8;

GSPARQL_HOST_DEVICE constexpr uint32_t primaryGroupCount(uint32_t keyCount, uint32_t version = kFormatVersion) {
  if (version == 1) return keyCount;
  return keyCount / kKeysPerPrimaryGroup + (keyCount % kKeysPerPrimaryGroup != 0 ? 1 : 0);
}

GSPARQL_HOST_DEVICE constexpr uint32_t primaryGroupOf(uint32_t vertex, uint32_t primaryGroups) {
  return hashVertex(vertex) % primaryGroups;
}

}  // namespace gsparql::pcsr
