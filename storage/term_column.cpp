#include "storage/term_column.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "storage/checksum.h"
#include "storage/file_header.h"

namespace gsparql {
namespace {

// Terms the writer holds at a time: whole checked blocks.
constexpr uint32_t kWriteTerms = 1u << 20;
static_assert(kWriteTerms % kTermsPerBlock == 0);

// Visits the runs [begin, begin + n) of ids 0..count-1 that the writer holds at a time.
template <typename Visit>
void forEachRun(uint32_t count, Visit visit) {
  for (uint32_t begin = 0, n = 0; begin < count; begin += n) {
    n = std::min(count - begin, kWriteTerms);
    visit(begin, n);
  }
}

// The offsets of terms begin..begin+n-1 (n + 1 of them), the first `start`:
// where the term before ends.
void runOffsets(const NumberedTerms& terms, uint32_t begin, uint32_t n, uint64_t start, std::vector<uint64_t>& offsets) {
  offsets.resize(n + 1);
  offsets[0] = start;
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) offsets[i + 1] = terms.term(begin + i).size();
  });
  std::inclusive_scan(offsets.begin(), offsets.end(), offsets.begin());
}

uint64_t offsetsBytes(uint64_t count) { return (count + 1) * sizeof(uint64_t); }

uint64_t alignedTo4(uint64_t bytes) { return (bytes + 3) / 4 * 4; }

// A block's checksum: its offsets, then the text they delimit.
uint32_t blockChecksum(std::span<const uint64_t> offsets, std::string_view text) {
  return blockSum(blockSum(0, offsets), text.data(), text.size());
}

// Appends the checksums of the blocks of a run whose offsets (from its
// first term's start to its last term's end) delimit `text`.
void appendBlockChecksums(std::span<const uint64_t> offsets, std::string_view text, std::vector<uint32_t>& checksums) {
  const IdBlocks blocks = blocksOf(offsets.size() - 1, kTermsPerBlock);
  const size_t at = checksums.size();
  checksums.resize(at + blocks.count());
  tbb::parallel_for(size_t{0}, blocks.count(), [&](size_t b) {
    const auto o = offsets.subspan(blocks.first(b), blocks.end(b) - blocks.first(b) + 1);
    checksums[at + b] = blockChecksum(o, text.substr(o.front() - offsets.front(), o.back() - o.front()));
  });
}

}  // namespace

// Two passes over the terms, so that memory stays one run: the offsets,
// then the text and the blocks' checksums.
void writeTermColumn(const std::filesystem::path& path, const NumberedTerms& terms) {
  OutputFile file(path);
  TermColumnHeader header{};
  file.write(&header, sizeof header);
  std::vector<uint64_t> offsets;
  uint64_t start = 0;
  file.write(&start, sizeof start);
  forEachRun(terms.count, [&](uint32_t begin, uint32_t n) {
    runOffsets(terms, begin, n, start, offsets);
    file.writeArray(std::span<const uint64_t>(offsets).subspan(1));
    start = offsets.back();
  });
  header.textBytes = start;

  std::string text;
  std::vector<uint32_t> checksums;
  start = 0;
  forEachRun(terms.count, [&](uint32_t begin, uint32_t n) {
    runOffsets(terms, begin, n, start, offsets);
    text.resize(offsets.back() - start);
    tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n, 4096), [&](const tbb::blocked_range<uint32_t>& r) {
      for (uint32_t i = r.begin(); i != r.end(); ++i) {
        const std::string_view term = terms.term(begin + i);
        std::memcpy(text.data() + (offsets[i] - start), term.data(), term.size());
      }
    });
    file.write(text.data(), text.size());
    appendBlockChecksums(offsets, text, checksums);
    start = offsets.back();
  });
  file.padTo(4);
  file.writeArray(std::span<const uint32_t>(checksums));
  header.blockTerms = kTermsPerBlock;
  header.count = terms.count;
  header.fileSize = file.position();
  sealHeader(header, kTermsMagic, kTermsFormatVersion);
  file.writeAt(0, &header, sizeof header);
  file.commit();
}

TermColumn::TermColumn(const std::filesystem::path& path) : file_(std::make_shared<const MappedFile>(path)) {
  const auto bytes = file_->bytes();
  const auto header =
      readHeader<TermColumnHeader>(bytes, path, kTermsMagic, kOldestTermsFormatVersion, kTermsFormatVersion);
  requireIntact(header.count <= std::numeric_limits<uint32_t>::max(), path, "more terms than vertex ids");
  version_ = header.version;
  blocks_ = version_ == 1 ? IdBlocks{header.count} : readBlocks(header.count, header.blockTerms, path);
  const uint64_t textStart = sizeof header + offsetsBytes(header.count);
  const uint64_t checksumsStart = version_ == 1 ? textStart + header.textBytes : alignedTo4(textStart + header.textBytes);
  const size_t checksums = version_ == 1 ? 0 : blocks_.count();
  const uint64_t expected = checksumsStart + checksums * sizeof(uint32_t);
  requireIntact(header.textBytes <= bytes.size() && header.fileSize == bytes.size() && expected == bytes.size(), path,
                "truncated (" + std::to_string(bytes.size()) + " bytes, the header says " +
                    std::to_string(header.fileSize) + ")");
  // The mapping is page-aligned, so the offsets after the 64-byte header are
  // 8-byte aligned, and the checksums 4-byte aligned.
  offsets_ = {reinterpret_cast<const uint64_t*>(bytes.data() + sizeof header), static_cast<size_t>(header.count + 1)};
  text_ = {reinterpret_cast<const char*>(bytes.data() + textStart), static_cast<size_t>(header.textBytes)};
  blockChecksums_ = {reinterpret_cast<const uint32_t*>(bytes.data() + checksumsStart), checksums};
  offsetsChecksum_ = header.offsetsChecksum;
  textChecksum_ = header.textChecksum;
  checked_ = BlockChecks(blocks_.count());
}

// The offsets first: the text they delimit is read only once they are in
// order and inside it.
void TermColumn::checkBlock(size_t block) const {
  const uint64_t first = blocks_.first(block);
  const auto offsets = offsets_.subspan(first, blocks_.end(block) - first + 1);
  checkOffsets(block, offsets);
  const std::string_view text = text_.substr(offsets.front(), offsets.back() - offsets.front());
  const bool intact = version_ == 1 ? format1Intact() : blockChecksum(offsets, text) == blockChecksums_[block];
  requireIntact(intact, file_->path(), blocks_.name(block) + ": checksum mismatch",
                sizeof(TermColumnHeader) + first * sizeof(uint64_t));
}

void TermColumn::checkOffsets(size_t block, std::span<const uint64_t> offsets) const {
  auto bad = std::adjacent_find(offsets.begin(), offsets.end(), std::greater<>());
  if (bad != offsets.end()) {
    ++bad;  // the first offset below its predecessor
  } else if (offsets.back() > text_.size()) {
    bad = offsets.end() - 1;
  } else {
    return;
  }
  const uint64_t entry = blocks_.first(block) + static_cast<uint64_t>(bad - offsets.begin());
  throwCorrupted(file_->path().string(), sizeof(TermColumnHeader) + entry * sizeof(uint64_t),
                 blocks_.name(block) + ": offsets out of order or past the text");
}

bool TermColumn::format1Intact() const {
  return crc32UpdateParallel(0, std::as_bytes(offsets_)) == offsetsChecksum_ &&
         crc32UpdateParallel(0, std::as_bytes(std::span(text_))) == textChecksum_;
}

void TermColumn::verify() const {
  tbb::parallel_for(size_t{0}, blocks_.count(), [&](size_t block) { checkBlock(block); });
}

}  // namespace gsparql
