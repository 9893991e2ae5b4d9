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

constexpr uint32_t kBlockEntries = 1u << 20;

}  // namespace

void writeValueColumn(const std::filesystem::path& path, uint32_t count,
                      const std::function<std::string_view(uint32_t id)>& term) {
  OutputFile file(path);
  ValueFileHeader header{};
  file.write(&header, sizeof header);
  std::vector<rdf::TypedValue> block(std::min(count, kBlockEntries));
  uint32_t crc = 0;
  for (uint32_t begin = 0, n = 0; begin < count; begin += n) {
    n = std::min(count - begin, kBlockEntries);
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
      for (uint32_t i = r.begin(); i != r.end(); ++i) block[i] = rdf::typedValueOf(term(begin + i));
    });
    std::span<const rdf::TypedValue> written(block.data(), n);
    crc = crc32Update(crc, written);
    file.writeArray(written);
  }
  header.entryBytes = sizeof(rdf::TypedValue);
  header.count = count;
  header.fileSize = file.position();
  header.dataChecksum = crc;
  sealHeader(header, kValuesMagic, kValuesFormatVersion);
  file.writeAt(0, &header, sizeof header);
  file.commit();
}

ValueColumn::ValueColumn(const std::filesystem::path& path) : file_(path) {
  auto bytes = file_.bytes();
  const auto header = readHeader<ValueFileHeader>(bytes, path, kValuesMagic, kValuesFormatVersion);
  requireIntact(header.entryBytes == sizeof(rdf::TypedValue), path,
          "entries of " + std::to_string(header.entryBytes) + " bytes, expected " +
              std::to_string(sizeof(rdf::TypedValue)));
  requireIntact(header.count <= std::numeric_limits<uint32_t>::max(), path, "more entries than vertex ids");
  requireIntact(header.fileSize == bytes.size() &&
              header.fileSize == sizeof(ValueFileHeader) + header.count * sizeof(rdf::TypedValue),
          path, "truncated (" + std::to_string(bytes.size()) + " bytes, expected " +
                    std::to_string(sizeof(ValueFileHeader) + header.count * sizeof(rdf::TypedValue)) + ")");
  dataChecksum_ = header.dataChecksum;
  // The mapping is page-aligned, so the entries after the 64-byte header are 16-byte aligned.
  entries_ = {reinterpret_cast<const rdf::TypedValue*>(bytes.data() + sizeof header),
              static_cast<size_t>(header.count)};
}

void ValueColumn::verify() const {
  requireIntact(crc32UpdateParallel(0, std::as_bytes(entries_)) == dataChecksum_, file_.path(), "data checksum mismatch",
          sizeof(ValueFileHeader));
}

}  // namespace gsparql
