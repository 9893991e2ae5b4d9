#include "storage/term_column.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "storage/checksum.h"
#include "storage/file_header.h"

namespace gsparql {
namespace {

constexpr uint32_t kBlockTerms = 1u << 20;

// Visits the blocks [begin, begin + n) of ids 0..count-1.
template <typename Visit>
void forEachBlock(uint32_t count, Visit visit) {
  for (uint32_t begin = 0, n = 0; begin < count; begin += n) {
    n = std::min(count - begin, kBlockTerms);
    visit(begin, n);
  }
}

// Ends of the terms of a block, relative to the block's first term.
void blockEnds(const NumberedTerms& terms, uint32_t begin, uint32_t n, std::vector<uint64_t>& ends) {
  ends.resize(n);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) ends[i] = terms.term(begin + i).size();
  });
  std::inclusive_scan(ends.begin(), ends.end(), ends.begin());
}

uint64_t offsetsBytes(uint64_t count) { return (count + 1) * sizeof(uint64_t); }

}  // namespace

// Two passes over the terms, so that memory stays one block: the offsets,
// then the text.
void writeTermColumn(const std::filesystem::path& path, const NumberedTerms& terms) {
  OutputFile file(path);
  TermColumnHeader header{};
  file.write(&header, sizeof header);
  std::vector<uint64_t> ends;
  uint64_t start = 0;
  uint32_t crc = crc32Update(0, &start, sizeof start);
  file.write(&start, sizeof start);
  forEachBlock(terms.count, [&](uint32_t begin, uint32_t n) {
    blockEnds(terms, begin, n, ends);
    for (uint64_t& end : ends) end += start;
    start = ends.back();
    crc = crc32Update(crc, std::span<const uint64_t>(ends));
    file.writeArray(std::span<const uint64_t>(ends));
  });
  header.offsetsChecksum = crc;
  header.textBytes = start;

  std::string text;
  crc = 0;
  forEachBlock(terms.count, [&](uint32_t begin, uint32_t n) {
    blockEnds(terms, begin, n, ends);
    text.resize(ends.back());
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
      for (uint32_t i = r.begin(); i != r.end(); ++i) {
        const std::string_view term = terms.term(begin + i);
        std::memcpy(text.data() + ends[i] - term.size(), term.data(), term.size());
      }
    });
    crc = crc32Update(crc, text.data(), text.size());
    file.write(text.data(), text.size());
  });
  header.textChecksum = crc;
  header.count = terms.count;
  header.fileSize = file.position();
  sealHeader(header, kTermsMagic, kTermsFormatVersion);
  file.writeAt(0, &header, sizeof header);
  file.commit();
}

TermColumn::TermColumn(const std::filesystem::path& path) : file_(path) {
  const auto bytes = file_.bytes();
  const auto header = readHeader<TermColumnHeader>(bytes, path, kTermsMagic, kTermsFormatVersion);
  requireIntact(header.count <= std::numeric_limits<uint32_t>::max(), path, "more terms than vertex ids");
  const uint64_t offsetBytes = offsetsBytes(header.count);
  const uint64_t expected = sizeof header + offsetBytes + header.textBytes;
  requireIntact(header.textBytes <= bytes.size() && header.fileSize == bytes.size() && expected == bytes.size(), path,
                "truncated (" + std::to_string(bytes.size()) + " bytes, the header says " +
                    std::to_string(header.fileSize) + ")");
  offsetsChecksum_ = header.offsetsChecksum;
  textChecksum_ = header.textChecksum;
  // The mapping is page-aligned, so the offsets after the 64-byte header are 8-byte aligned.
  offsets_ = {reinterpret_cast<const uint64_t*>(bytes.data() + sizeof header), static_cast<size_t>(header.count + 1)};
  text_ = {reinterpret_cast<const char*>(bytes.data() + sizeof header + offsetBytes),
           static_cast<size_t>(header.textBytes)};
}

void TermColumn::throwDamagedEntry(uint32_t id) const {
  throwCorrupted(file_.path().string(), sizeof(TermColumnHeader) + uint64_t{id} * sizeof(uint64_t),
                 "offsets of term " + std::to_string(id) + " out of range");
}

void TermColumn::verify() const {
  const std::filesystem::path& path = file_.path();
  requireIntact(crc32UpdateParallel(0, std::as_bytes(offsets_)) == offsetsChecksum_, path,
                "offsets checksum mismatch", sizeof(TermColumnHeader));
  requireIntact(crc32UpdateParallel(0, std::as_bytes(std::span(text_))) == textChecksum_, path,
                "text checksum mismatch", sizeof(TermColumnHeader) + offsets_.size_bytes());
  requireIntact(offsets_.front() == 0 && offsets_.back() == text_.size(), path, "offsets do not span the text",
                sizeof(TermColumnHeader));
  const auto disorder = std::adjacent_find(offsets_.begin(), offsets_.end(), std::greater<>());
  if (disorder != offsets_.end()) throwDamagedEntry(static_cast<uint32_t>(disorder - offsets_.begin()));
}

}  // namespace gsparql
