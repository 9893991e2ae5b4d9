// libFuzzer target for delta files (storage/delta_file.h): the input is
// written as a generation folder's delta-000001 and read back. The first
// byte even: the rest gets its right checksum appended, so that mutations
// reach the records behind it; odd: the rest is the file as it is. Findings: a
// crash, a sanitizer report, an exception other than StorageError, or a file
// that reads without error but whose changes, written by writeDeltaFile and
// read again, come back other.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gsparql/error.h"
#include "storage/checksum.h"
#include "storage/delta_file.h"
#include "storage/file_io.h"

namespace {

const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("gsparql-delta-fuzzer-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// The records applied in order, as an update's changes.
gsparql::GraphChanges changesOf(const std::vector<gsparql::DeltaRecord>& records) {
  gsparql::GraphChanges changes;
  for (const auto& r : records) {
    if (r.insert) {
      changes.insert(r.triple);
    } else {
      changes.remove(r.triple, true);
    }
  }
  return changes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gsparql;
  const std::filesystem::path dir = scratch();
  if (size == 0) return 0;
  std::string file(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    const uint32_t crc = crc32Update(0, file.data(), file.size());
    file.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  }
  std::ofstream(dir / "delta-000001", std::ios::binary | std::ios::trunc).write(file.data(), static_cast<std::streamsize>(file.size()));
  std::vector<DeltaRecord> records;
  try {
    records = readDeltaFiles(dir, 1, 1);
  } catch (const StorageError&) {
    return 0;  // a damaged file, said so
  }
  GraphChanges changes = changesOf(records);
  std::filesystem::remove(dir / "delta-000001");
  writeDeltaFile(dir, 1, deltaRecordsOf(changes));
  const GraphChanges again = changesOf(readDeltaFiles(dir, 1, 1));
  if (again.inserted() != changes.inserted() || again.deleted() != changes.deleted()) abort();
  return 0;
}
