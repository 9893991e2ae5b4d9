#include "storage/value_column.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "storage/checksum.h"
#include "storage/file_header.h"

namespace gsparql {
namespace {

// Entries the writer holds at a time (16 MiB): whole checked blocks.
constexpr uint32_t kWriteEntries = 1u << 20;
static_assert(kWriteEntries % kValuesPerBlock == 0);

uint32_t blockChecksum(std::span<const rdf::TypedValue> entries) { return blockSum(0, entries); }

void appendBlockChecksums(std::span<const rdf::TypedValue> run, std::vector<uint32_t>& checksums) {
  const IdBlocks blocks = blocksOf(run.size(), kValuesPerBlock);
  const size_t at = checksums.size();
  checksums.resize(at + blocks.count());
  tbb::parallel_for(size_t{0}, blocks.count(), [&](size_t b) {
    checksums[at + b] = blockChecksum(run.subspan(blocks.first(b), blocks.end(b) - blocks.first(b)));
  });
}

}  // namespace

void writeValueColumn(const std::filesystem::path& path, uint32_t count,
                      const std::function<std::string_view(uint32_t id)>& term) {
  OutputFile file(path);
  ValueFileHeader header{};
  file.write(&header, sizeof header);
  std::vector<rdf::TypedValue> run(std::min(count, kWriteEntries));
  std::vector<uint32_t> checksums;
  for (uint32_t begin = 0, n = 0; begin < count; begin += n) {
    n = std::min(count - begin, kWriteEntries);
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
      for (uint32_t i = r.begin(); i != r.end(); ++i) run[i] = rdf::typedValueOf(term(begin + i));
    });
    std::span<const rdf::TypedValue> written(run.data(), n);
    appendBlockChecksums(written, checksums);
    file.writeArray(written);
  }
  file.writeArray(std::span<const uint32_t>(checksums));
  header.entryBytes = sizeof(rdf::TypedValue);
  header.count = count;
  header.fileSize = file.position();
  header.blockEntries = kValuesPerBlock;
  sealHeader(header, kValuesMagic, kValuesFormatVersion);
  file.writeAt(0, &header, sizeof header);
  file.commit();
}

ValueColumn::ValueColumn(const std::filesystem::path& path) : file_(std::make_shared<const MappedFile>(path)) {
  auto bytes = file_->bytes();
  const auto header =
      readHeader<ValueFileHeader>(bytes, path, kValuesMagic, kOldestValuesFormatVersion, kValuesFormatVersion);
  requireIntact(header.entryBytes == sizeof(rdf::TypedValue), path,
                "entries of " + std::to_string(header.entryBytes) + " bytes, expected " +
                    std::to_string(sizeof(rdf::TypedValue)));
  requireIntact(header.count <= std::numeric_limits<uint32_t>::max(), path, "more entries than vertex ids");
  version_ = header.version;
  blocks_ = version_ == 1 ? IdBlocks{header.count} : readBlocks(header.count, header.blockEntries, path);
  const uint64_t checksumsStart = sizeof(ValueFileHeader) + header.count * sizeof(rdf::TypedValue);
  const size_t checksums = version_ == 1 ? 0 : blocks_.count();
  const uint64_t expected = checksumsStart + checksums * sizeof(uint32_t);
  requireIntact(header.fileSize == bytes.size() && expected == bytes.size(), path,
                "truncated (" + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + ")");
  // The mapping is page-aligned, so the entries after the 64-byte header are
  // 16-byte aligned, and the checksums after them too.
  entries_ = {reinterpret_cast<const rdf::TypedValue*>(bytes.data() + sizeof header), static_cast<size_t>(header.count)};
  blockChecksums_ = {reinterpret_cast<const uint32_t*>(bytes.data() + checksumsStart), checksums};
  dataChecksum_ = header.dataChecksum;
  checked_ = BlockChecks(blocks_.count());
}

void ValueColumn::checkBlock(size_t block) const {
  const uint64_t first = blocks_.first(block);
  const bool intact = version_ == 1
                          ? crc32UpdateParallel(0, std::as_bytes(entries_)) == dataChecksum_
                          : blockChecksum(entries_.subspan(first, blocks_.end(block) - first)) == blockChecksums_[block];
  requireIntact(intact, file_->path(), blocks_.name(block) + ": checksum mismatch",
                sizeof(ValueFileHeader) + first * sizeof(rdf::TypedValue));
}

void ValueColumn::verify() const {
  tbb::parallel_for(size_t{0}, blocks_.count(), [&](size_t block) { checkBlock(block); });
}

}  // namespace gsparql
