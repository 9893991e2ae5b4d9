#include "storage/adjacency.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <ranges>
#include <string>

#include "storage/adjacency_check.h"
#include "storage/adjacency_writer.h"
#include "storage/checksum.h"
#include "storage/data_identity.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

template <typename T>
std::span<const T> arrayAt(const std::byte* base, uint64_t offset, size_t count) {
  return {reinterpret_cast<const T*>(base + offset), count};
}

void require(bool ok, const std::filesystem::path& path, uint64_t offset, const std::string& what) {
  if (!ok) throwCorrupted(path.string(), offset, what);
}

// offset + bytes <= limit, without overflow.
bool fits(uint64_t offset, uint64_t bytes, uint64_t limit) { return offset <= limit && bytes <= limit - offset; }

// What is wrong with a table-of-contents entry, found without reading the
// data: each array lies aligned between the header and the table, and the
// counts agree with one another.
std::optional<std::string> sectionProblem(const pcsr::PredicateSection& s, uint32_t version, uint64_t dataEnd,
                                          uint64_t vertexCount) {
  const std::pair<uint64_t, uint64_t> arrays[] = {
      {s.keysOffset, 4ull * s.keyCount},          {s.offsetsOffset, 4ull * (s.keyCount + 1ull)},
      {s.neighboursOffset, 4ull * s.edgeCount},   {s.groupsOffset, uint64_t{sizeof(pcsr::Group)} * s.groupCount},
      {s.groupNeighboursOffset, 4ull * s.edgeCount}};
  for (const auto& [offset, bytes] : arrays) {
    if (offset < sizeof(pcsr::FileHeader) || offset % pcsr::kAlignment != 0 || !fits(offset, bytes, dataEnd)) {
      return "an array lies outside the data area";
    }
  }
  if (s.keyCount > vertexCount || s.keyCount > s.edgeCount || (s.keyCount == 0) != (s.edgeCount == 0)) {
    return "key, edge and vertex counts disagree";
  }
  if (s.groupCount < pcsr::primaryGroupCount(s.keyCount, version) || s.longestChain > s.groupCount) {
    return "group and key counts disagree";
  }
  if (s.maxDegree > s.edgeCount || (s.edgeCount > 0) != (s.maxDegree > 0)) {
    return "largest degree and edge count disagree";
  }
  return std::nullopt;
}

}  // namespace

PredicateAdjacency::PredicateAdjacency(const std::byte* base, const pcsr::PredicateSection& s, uint32_t version,
                                       const SectionBlocks* blocks)
    : section_(s),
      primaryGroups_(pcsr::primaryGroupCount(s.keyCount, version)),
      arrays_{arrayAt<uint32_t>(base, s.keysOffset, s.keyCount), arrayAt<uint32_t>(base, s.offsetsOffset, s.keyCount + 1),
              arrayAt<uint32_t>(base, s.neighboursOffset, s.edgeCount), arrayAt<pcsr::Group>(base, s.groupsOffset, s.groupCount),
              arrayAt<uint32_t>(base, s.groupNeighboursOffset, s.edgeCount)},
      blocks_(blocks) {}

std::span<const uint32_t> PredicateAdjacency::neighbours(uint32_t vertex) const {
  if (section_.keyCount == 0) return {};
  uint32_t g = pcsr::primaryGroupOf(vertex, primaryGroups_);
  while (g != pcsr::kNone) {
    ensure(AdjacencyArray::Groups, g, g + 1);  // then its slots and its chain's next group are in range
    const uint32_t* w = arrays_.groups[g].words;
    for (uint32_t slot = 0; slot < pcsr::kSlotsPerGroup && w[2 * slot] != pcsr::kNone; ++slot) {
      if (w[2 * slot] != vertex) continue;
      bool last = slot + 1 == pcsr::kSlotsPerGroup || w[2 * slot + 2] == pcsr::kNone;
      uint32_t end = last ? w[31] : w[2 * slot + 3];
      ensure(AdjacencyArray::GroupNeighbours, w[2 * slot + 1], end);
      return arrays_.groupNeighbours.subspan(w[2 * slot + 1], end - w[2 * slot + 1]);
    }
    g = w[30];
  }
  return {};
}

uint32_t PredicateAdjacency::key(size_t keyIndex) const {
  ensure(AdjacencyArray::Keys, keyIndex, keyIndex + 1);
  return arrays_.keys[keyIndex];
}

std::span<const uint32_t> PredicateAdjacency::neighboursAt(size_t keyIndex) const {
  ensure(AdjacencyArray::Offsets, keyIndex, keyIndex + 2);  // then begin <= end <= the edge count
  const uint32_t begin = arrays_.offsets[keyIndex], end = arrays_.offsets[keyIndex + 1];
  ensure(AdjacencyArray::Neighbours, begin, end);
  return arrays_.neighbours.subspan(begin, end - begin);
}

uint32_t PredicateAdjacency::neighbourAt(uint64_t edgeIndex) const {
  ensure(AdjacencyArray::Neighbours, edgeIndex, edgeIndex + 1);
  return arrays_.neighbours[edgeIndex];
}

// Binary searches read element by element, each block checked as the search
// reaches it: partition points over key indices.
size_t PredicateAdjacency::keyIndexOfEdge(uint64_t edgeIndex) const {
  // The last key whose list begins at or before the edge (offsets[0] is 0).
  const auto indices = std::views::iota(size_t{1}, std::max<size_t>(1, section_.keyCount));
  const auto after = std::ranges::partition_point(indices, [&](size_t k) {
    ensure(AdjacencyArray::Offsets, k, k + 1);
    return arrays_.offsets[k] <= edgeIndex;
  });
  return static_cast<size_t>(after - indices.begin());
}

std::span<const uint32_t> PredicateAdjacency::neighboursByBinarySearch(uint32_t vertex) const {
  const auto indices = std::views::iota(size_t{0}, size_t{section_.keyCount});
  const auto at = std::ranges::partition_point(indices, [&](size_t k) { return key(k) < vertex; });
  const auto first = static_cast<size_t>(at - indices.begin());
  if (first == section_.keyCount || key(first) != vertex) return {};
  return neighboursAt(first);
}

AdjacencyFile::AdjacencyFile(const std::filesystem::path& path, uint64_t vertexCount)
    : file_(std::make_shared<const MappedFile>(path)), vertexCount_(vertexCount), identity_(newDataIdentity()) {
  auto bytes = file_->bytes();
  require(bytes.size() >= sizeof(pcsr::FileHeader), path, 0, "shorter than its header");
  pcsr::FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  require(std::memcmp(header.magic, pcsr::kMagic, sizeof header.magic) == 0, path, 0, "bad magic");
  require(header.version >= pcsr::kOldestReadableVersion && header.version <= pcsr::kFormatVersion, path,
          offsetof(pcsr::FileHeader, version),
          "format version " + std::to_string(header.version) + ", expected " +
              std::to_string(pcsr::kOldestReadableVersion) + " to " + std::to_string(pcsr::kFormatVersion));
  require(header.headerChecksum ==
              crc32Update(0, &header, offsetof(pcsr::FileHeader, headerChecksum)),
          path, 0, "header checksum mismatch");
  require(header.fileSize == bytes.size(), path, bytes.size(),
          "truncated: " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(header.fileSize));
  require(header.direction <= static_cast<uint32_t>(pcsr::Direction::In), path,
          offsetof(pcsr::FileHeader, direction), "unknown direction");
  uint64_t tocBytes = uint64_t{header.predicateCount} * sizeof(pcsr::PredicateSection);
  require(header.tocOffset >= sizeof header && fits(header.tocOffset, tocBytes, bytes.size()), path,
          offsetof(pcsr::FileHeader, tocOffset), "table of contents out of range");
  auto toc = arrayAt<pcsr::PredicateSection>(bytes.data(), header.tocOffset, header.predicateCount);
  require(crc32Update(0, toc) == header.tocChecksum, path, header.tocOffset, "table of contents checksum mismatch");
  direction_ = static_cast<pcsr::Direction>(header.direction);
  version_ = header.version;
  for (size_t p = 0; p < toc.size(); ++p) {
    if (auto problem = sectionProblem(toc[p], header.version, header.tocOffset, vertexCount)) {
      throwCorrupted(path.string(), header.tocOffset + p * sizeof(pcsr::PredicateSection),
                     "predicate " + std::to_string(p) + ": " + *problem);
    }
  }
  if (header.version >= 4) blocks_ = readBlocks(path, header, toc, tocBytes);
  predicates_.reserve(toc.size());
  for (size_t p = 0; p < toc.size(); ++p) {
    predicates_.emplace_back(bytes.data(), toc[p], header.version, blocks_ ? &blocks_->sections[p] : nullptr);
  }
  checked_ = BlockChecks(predicates_.size());
}

std::shared_ptr<const FileBlocks> AdjacencyFile::readBlocks(const std::filesystem::path& path,
                                                            const pcsr::FileHeader& header,
                                                            std::span<const pcsr::PredicateSection> toc,
                                                            uint64_t tocBytes) const {
  const std::span<const std::byte> bytes = file_->bytes();
  size_t sumCount = 0, flagCount = 0;
  for (const pcsr::PredicateSection& s : toc) {
    sumCount += SectionBlocks::sumCount(s);
    flagCount += SectionBlocks::flagCount(s);
  }
  require(header.blockSumsOffset % sizeof(uint64_t) == 0 && header.blockSumsOffset >= header.tocOffset + tocBytes &&
              fits(header.blockSumsOffset, sumCount * sizeof(uint64_t), bytes.size()),
          path, offsetof(pcsr::FileHeader, blockSumsOffset), "block sums out of range");
  const auto sums = arrayAt<uint64_t>(bytes.data(), header.blockSumsOffset, sumCount);
  auto blocks = std::make_shared<FileBlocks>();
  blocks->path = path.string();
  blocks->checks = BlockChecks(flagCount);
  blocks->sections.reserve(toc.size());  // never moved: the predicates point at them
  size_t firstSum = 0, firstFlag = 0;
  for (uint32_t p = 0; p < toc.size(); ++p) {
    const PredicateAdjacency unchecked(bytes.data(), toc[p], header.version);
    const size_t count = SectionBlocks::sumCount(toc[p]);
    blocks->sections.emplace_back(blocks->path, vertexCount_, p, toc[p], unchecked.unchecked(),
                                  sums.subspan(firstSum, count), blocks->checks, firstFlag);
    firstSum += count;
    firstFlag += SectionBlocks::flagCount(toc[p]);
  }
  return blocks;
}

void AdjacencyFile::replace(uint32_t id, std::shared_ptr<const AdjacencySection> section) {
  if (id >= predicates_.size()) predicates_.resize(id + 1);
  replaced_.resize(predicates_.size());
  predicates_[id] = section->view();
  replaced_[id] = std::move(section);
  sources_.resize(predicates_.size());
  sources_[id] = newDataIdentity();
  BlockChecks checked(predicates_.size());
  for (size_t p = 0; p < predicates_.size(); ++p) {
    if (replaced_[p] || p >= checked_.size() || checked_.passed(p)) checked.markPassed(p);
  }
  checked_ = std::move(checked);
}

void AdjacencyFile::check(uint32_t id) const {
  if (id < replaced_.size() && replaced_[id]) return;  // made in memory from checked data
  const PredicateAdjacency& a = predicates_[id];
  const std::string predicate = "predicate " + std::to_string(id) + ": ";
  if (blocks_) {  // format 4: the blocks' sums here, each block on its first use
    require(sumOfBlockSums(blocks_->sections[id].sums()) == a.section().dataChecksum, file_->path(),
            a.section().keysOffset, predicate + "block sums checksum mismatch");
    return;
  }
  require(adjacencyChecksum(a, version_) == a.section().dataChecksum, file_->path(), a.section().keysOffset,
          predicate + "data checksum mismatch");
  if (auto corruption = findCorruption(a, vertexCount_)) {
    throwCorrupted(file_->path().string(), corruption->offset, predicate + corruption->what);
  }
}

void AdjacencyFile::verify() const {
  for (uint32_t p = 0; p < predicateCount(); ++p) {
    check(p);
    const bool fromFile = !(p < replaced_.size() && replaced_[p]);
    if (blocks_ && fromFile) blocks_->sections[p].checkAll();
  }
}

}  // namespace gsparql
