// libFuzzer target for adjacency files (storage/adjacency.h, format 4): the
// input, less its first byte, is written as a file and read through every
// lookup. The first byte even: every checksum is first made right for the
// bytes (adjacency_reseal.h), so that mutations reach the format's rules;
// odd: the file as it is. Findings: a crash, a sanitizer report (a read out
// of bounds), a lookup that does not end, or an exception other than
// StorageError. Seeds: corpus-adjacency/, files written by `gsparql load`.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "gsparql/error.h"
#include "storage/adjacency.h"
#include "storage/fuzz/adjacency_reseal.h"

namespace {

constexpr uint64_t kVertexCount = 4096;

const std::filesystem::path& scratch() {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("gsparql-adjacency-fuzzer-" + std::to_string(getpid()) + ".pcsr");
  return file;
}

// Every lookup of one predicate, each list read to its end.
uint64_t readAll(const gsparql::PredicateAdjacency& a) {
  uint64_t sum = 0;
  for (size_t k = 0; k < a.keyCount(); ++k) {
    const uint32_t key = a.key(k);
    for (uint32_t n : a.neighboursAt(k)) sum += n;
    for (uint32_t n : a.neighbours(key)) sum += n;
    sum += a.neighboursByBinarySearch(key).size();
  }
  for (uint64_t e = 0; e < a.edgeCount(); e += 1 + a.edgeCount() / 16) sum += a.keyIndexOfEdge(e) + a.neighbourAt(e);
  sum += a.neighbours(static_cast<uint32_t>(kVertexCount - 1)).size();  // most likely absent: a chain to its end
  for (uint32_t n : a.groupNeighbours()) sum += n;  // whole arrays, each block checked first
  return sum + a.keys().size() + a.offsets().size() + a.neighbours().size() + a.groups().size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gsparql;
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) fuzz::resealAdjacency(bytes);
  std::ofstream(scratch(), std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  try {
    const AdjacencyFile file(scratch(), kVertexCount);
    volatile uint64_t sink = 0;
    for (uint32_t p = 0; p < std::min<uint32_t>(file.predicateCount(), 64); ++p) {
      try {
        sink = sink + readAll(file.predicate(p));
      } catch (const StorageError&) {
        // damage in this predicate; the next may be whole
      }
    }
    file.verify();
  } catch (const StorageError&) {
    // reported as corruption: what the reader must do with bad bytes
  }
  return 0;
}
