#include "storage/delta_file.h"

#include <cstring>
#include <string_view>

#include "storage/checksum.h"
#include "storage/crash_point.h"
#include "storage/file_io.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

constexpr std::string_view kMagic = "GSDELTA1";

std::filesystem::path deltaPath(const std::filesystem::path& dir, uint32_t number) {
  std::string name = std::to_string(number);
  name.insert(0, name.size() < 6 ? 6 - name.size() : 0, '0');
  return dir / ("delta-" + name);
}

void appendUint32(std::string& out, uint32_t value) { out.append(reinterpret_cast<const char*>(&value), 4); }

void appendRecord(std::string& out, const DeltaRecord& record) {
  out += record.insert ? '+' : '-';
  for (const std::string& term : record.triple) {
    appendUint32(out, static_cast<uint32_t>(term.size()));
    out += term;
  }
}

// Reads a file's bytes front to back, every read checked against its end.
class DeltaReader {
 public:
  DeltaReader(std::string bytes, std::filesystem::path path) : bytes_(std::move(bytes)), path_(std::move(path)) {}

  uint32_t uint32() {
    uint32_t value = 0;
    std::memcpy(&value, take(4).data(), 4);
    return value;
  }
  std::string_view take(uint64_t n) {
    require(n <= bytes_.size() - position_, "the file ends inside a record");
    std::string_view out(bytes_.data() + position_, n);
    position_ += n;
    return out;
  }
  void require(bool ok, const std::string& what) const {
    if (!ok) throwCorrupted(path_.string(), position_, what);
  }
  uint64_t position() const { return position_; }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
  std::filesystem::path path_;
  uint64_t position_ = 0;
};

void readDeltaFile(const std::filesystem::path& path, std::vector<DeltaRecord>& records) {
  DeltaReader in(readWholeFile(path), path);
  in.require(in.bytes().size() >= kMagic.size() + 8, "too short for a delta file");
  const uint64_t bodyBytes = in.bytes().size() - 4;
  uint32_t stored = 0;
  std::memcpy(&stored, in.bytes().data() + bodyBytes, 4);
  in.require(crc32Update(0, in.bytes().data(), bodyBytes) == stored, "checksum mismatch");
  in.require(in.take(kMagic.size()) == kMagic, "not a delta file");
  const uint32_t count = in.uint32();
  for (uint32_t i = 0; i < count; ++i) {
    const char op = in.take(1)[0];
    in.require(op == '+' || op == '-', "a record is neither an insertion nor a deletion");
    DeltaRecord record{op == '+', {}};
    for (std::string& term : record.triple) term = std::string(in.take(in.uint32()));
    records.push_back(std::move(record));
  }
  in.require(in.position() == bodyBytes, "bytes after the last record");
}

}  // namespace

bool hasDeltaFile(const std::filesystem::path& generationDir, uint32_t number) {
  return std::filesystem::exists(deltaPath(generationDir, number));
}

uint32_t deltaFileCount(const std::filesystem::path& generationDir) {
  uint32_t count = 0;
  while (hasDeltaFile(generationDir, count + 1)) ++count;
  return count;
}

std::vector<DeltaRecord> deltaRecordsOf(const GraphChanges& changes) {
  std::vector<DeltaRecord> records;
  records.reserve(changes.deleted().size() + changes.inserted().size());
  for (const TermTriple& t : changes.deleted()) records.push_back({false, t});
  for (const TermTriple& t : changes.inserted()) records.push_back({true, t});
  return records;
}

void writeDeltaFile(const std::filesystem::path& generationDir, uint32_t number, const std::vector<DeltaRecord>& records) {
  std::string content(kMagic);
  appendUint32(content, static_cast<uint32_t>(records.size()));
  for (const DeltaRecord& r : records) appendRecord(content, r);
  appendUint32(content, crc32Update(0, content.data(), content.size()));

  for (const auto& entry : std::filesystem::directory_iterator(generationDir)) {
    if (entry.path().extension() == ".tmp") std::filesystem::remove(entry.path());
  }
  const std::filesystem::path path = deltaPath(generationDir, number);
  std::filesystem::path scratch = path;
  scratch += ".tmp";
  writeFileDurably(scratch, content);
  crashPoint("delta-before-rename");
  std::filesystem::rename(scratch, path);
  syncDirectory(generationDir);
  crashPoint("delta-after-rename");
}

bool fitsDelta(const GraphChanges& changes) {
  return changes.onlyTriples() && changes.inserted().size() + changes.deleted().size() <= kMaxDeltaRecords;
}

bool deltaDueForMerge(uint32_t files, uint64_t records, uint64_t triples) {
  constexpr uint32_t kMaxFiles = 256;
  constexpr uint64_t kLeastRecords = 20'000;
  return files >= kMaxFiles || records >= kLeastRecords + triples / 200;
}

std::vector<DeltaRecord> readDeltaFiles(const std::filesystem::path& generationDir, uint32_t first, uint32_t last) {
  std::vector<DeltaRecord> records;
  for (uint32_t n = first; n <= last; ++n) readDeltaFile(deltaPath(generationDir, n), records);
  return records;
}

}  // namespace gsparql
