#include "storage/text_index.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <queue>
#include <unordered_map>

#include "storage/checksum.h"
#include "storage/file_header.h"
#include "storage/text_words.h"

namespace gsparql {

namespace {

constexpr uint32_t kMaxCount = 255;
constexpr uint32_t kMaxLength = (1u << 24) - 1;
// Literals a thread indexes at a time: one chunk's words sorted apart.
constexpr uint32_t kChunkTerms = 1u << 16;

uint32_t packCount(uint32_t count, uint32_t length) {
  return std::min(count, kMaxCount) << 24 | std::min(length, kMaxLength);
}

TextPosting unpack(uint32_t literal, uint32_t packed) { return {literal, packed >> 24, packed & kMaxLength}; }

struct Splitters {
  WordSplitter words;
  rdf::TermSplitter terms;
};

using WordMap = std::unordered_map<std::string, std::vector<TextPosting>>;

struct LiteralTotals {
  uint64_t literals = 0;
  uint64_t words = 0;
};

// Adds the literal's words, each once with its count, to `into`.
void indexTerm(uint32_t id, std::string_view term, Splitters& splitters, WordMap& into, LiteralTotals& totals) {
  std::string_view text;
  if (!indexedText(term, splitters.terms, text)) return;
  const std::vector<std::string>& words = splitters.words.split(text);
  if (words.empty()) return;
  std::vector<std::string_view> sorted(words.begin(), words.end());
  std::sort(sorted.begin(), sorted.end());
  const auto length = static_cast<uint32_t>(words.size());
  for (size_t i = 0; i < sorted.size();) {
    size_t run = i;
    while (run < sorted.size() && sorted[run] == sorted[i]) ++run;
    into[std::string(sorted[i])].push_back(unpack(id, packCount(static_cast<uint32_t>(run - i), length)));
    i = run;
  }
  ++totals.literals;
  totals.words += length;
}

struct Chunk {
  std::vector<std::pair<std::string, std::vector<TextPosting>>> words;  // by word
  LiteralTotals totals;
};

Chunk indexChunk(const NumberedTerms& terms, uint32_t begin, uint32_t end, Splitters& splitters) {
  WordMap map;
  Chunk chunk;
  for (uint32_t id = begin; id < end; ++id) indexTerm(id, terms.term(id), splitters, map, chunk.totals);
  chunk.words.assign(std::make_move_iterator(map.begin()), std::make_move_iterator(map.end()));
  std::sort(chunk.words.begin(), chunk.words.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return chunk;
}

struct Columns {
  std::vector<uint64_t> wordOffsets{0};
  std::vector<uint64_t> postingOffsets{0};
  std::vector<uint32_t> ids;
  std::vector<uint32_t> counts;
  std::string wordText;
};

// Merges the chunks' sorted words; chunks hold ascending id ranges, so a
// word's postings taken in chunk order stay ascending.
Columns mergeChunks(std::vector<Chunk>& chunks) {
  using Head = std::pair<std::string_view, size_t>;  // word, chunk
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  std::vector<size_t> next(chunks.size(), 0);
  for (size_t c = 0; c < chunks.size(); ++c) {
    if (!chunks[c].words.empty()) heads.emplace(chunks[c].words[0].first, c);
  }
  Columns columns;
  while (!heads.empty()) {
    const std::string word(heads.top().first);
    std::vector<size_t> holders;
    while (!heads.empty() && heads.top().first == word) {
      holders.push_back(heads.top().second);
      heads.pop();
    }
    std::sort(holders.begin(), holders.end());
    for (size_t c : holders) {
      auto& postings = chunks[c].words[next[c]].second;
      for (const TextPosting& p : postings) {
        columns.ids.push_back(p.literal);
        columns.counts.push_back(packCount(p.count, p.length));
      }
      std::vector<TextPosting>().swap(postings);
      if (++next[c] < chunks[c].words.size()) heads.emplace(chunks[c].words[next[c]].first, c);
    }
    columns.wordText += word;
    columns.wordOffsets.push_back(columns.wordText.size());
    columns.postingOffsets.push_back(columns.ids.size());
  }
  return columns;
}

template <typename T>
std::span<const T> arrayAt(std::span<const std::byte> bytes, uint64_t offset, uint64_t count) {
  return {reinterpret_cast<const T*>(bytes.data() + offset), static_cast<size_t>(count)};
}

}  // namespace

void writeTextIndex(const std::filesystem::path& path, const NumberedTerms& terms) {
  const uint32_t chunkCount = (terms.count + kChunkTerms - 1) / kChunkTerms;
  std::vector<Chunk> chunks(chunkCount);
  tbb::enumerable_thread_specific<Splitters> splitters;
  tbb::parallel_for(uint32_t{0}, chunkCount, [&](uint32_t c) {
    const uint32_t begin = c * kChunkTerms;
    chunks[c] = indexChunk(terms, begin, std::min(terms.count, begin + kChunkTerms), splitters.local());
  });
  TextIndexHeader header{};
  for (const Chunk& chunk : chunks) {
    header.literals += static_cast<uint32_t>(chunk.totals.literals);
    header.literalWords += chunk.totals.words;
  }
  const Columns columns = mergeChunks(chunks);
  header.words = columns.wordOffsets.size() - 1;
  header.postings = columns.ids.size();
  header.wordBytes = columns.wordText.size();

  OutputFile file(path);
  file.write(&header, sizeof header);
  uint32_t sum = 0;
  auto write = [&](const void* data, size_t bytes) {
    file.write(data, bytes);
    sum = blockSum(sum, data, bytes);
  };
  write(columns.wordOffsets.data(), columns.wordOffsets.size() * sizeof(uint64_t));
  write(columns.postingOffsets.data(), columns.postingOffsets.size() * sizeof(uint64_t));
  write(columns.ids.data(), columns.ids.size() * sizeof(uint32_t));
  write(columns.counts.data(), columns.counts.size() * sizeof(uint32_t));
  write(columns.wordText.data(), columns.wordText.size());
  header.fileSize = file.position();
  header.bodyChecksum = sum;
  sealHeader(header, kTextMagic, kTextFormatVersion);
  file.writeAt(0, &header, sizeof header);
  file.commit();
}

TextIndex::TextIndex(const std::filesystem::path& path)
    : file_(std::make_shared<const MappedFile>(path)), checked_(std::make_shared<Checked>()) {
  const auto bytes = file_->bytes();
  const auto header = readHeader<TextIndexHeader>(bytes, path, kTextMagic, kTextFormatVersion, kTextFormatVersion);
  const uint64_t offsetsBytes = 2 * 8 * (header.words + 1), postingBytes = 2 * 4 * header.postings;
  const bool sized = header.words < (uint64_t{1} << 40) && header.postings < (uint64_t{1} << 40) &&
                     header.wordBytes < (uint64_t{1} << 40) &&
                     header.fileSize == sizeof header + offsetsBytes + postingBytes + header.wordBytes;
  requireIntact(sized && header.fileSize == bytes.size(), path,
                "truncated (" + std::to_string(bytes.size()) + " bytes, the header says " +
                    std::to_string(header.fileSize) + ")");
  words_ = header.words;
  literals_ = header.literals;
  literalWords_ = header.literalWords;
  bodyChecksum_ = header.bodyChecksum;
  uint64_t at = sizeof header;
  wordOffsets_ = arrayAt<uint64_t>(bytes, at, words_ + 1);
  postingOffsets_ = arrayAt<uint64_t>(bytes, at += 8 * (words_ + 1), words_ + 1);
  ids_ = arrayAt<uint32_t>(bytes, at += 8 * (words_ + 1), header.postings);
  counts_ = arrayAt<uint32_t>(bytes, at += 4 * header.postings, header.postings);
  wordText_ = {reinterpret_cast<const char*>(bytes.data() + (at += 4 * header.postings)),
               static_cast<size_t>(header.wordBytes)};
}

void TextIndex::verify() const {
  // Summed array by array, as written.
  uint32_t sum = 0;
  for (std::span<const std::byte> part : {std::as_bytes(wordOffsets_), std::as_bytes(postingOffsets_),
                                          std::as_bytes(ids_), std::as_bytes(counts_), std::as_bytes(std::span(wordText_))}) {
    sum = blockSum(sum, part.data(), part.size());
  }
  requireIntact(sum == bodyChecksum_, file_->path(), "checksum mismatch", sizeof(TextIndexHeader));
  // Offsets in order and inside their arrays: reading a word or its postings stays in the file.
  auto ordered = [](std::span<const uint64_t> offsets, uint64_t end) {
    return offsets.front() == 0 && offsets.back() == end && std::is_sorted(offsets.begin(), offsets.end());
  };
  requireIntact(ordered(wordOffsets_, wordText_.size()) && ordered(postingOffsets_, ids_.size()), file_->path(),
                "offsets out of order", sizeof(TextIndexHeader));
}

void TextIndex::ensureChecked() const {
  std::call_once(checked_->once, [this] { verify(); });
}

std::string_view TextIndex::word(size_t i) const {
  return wordText_.substr(wordOffsets_[i], wordOffsets_[i + 1] - wordOffsets_[i]);
}

size_t TextIndex::lowerBound(std::string_view target) const {
  size_t low = 0, high = words_;
  while (low < high) {
    const size_t middle = low + (high - low) / 2;
    if (word(middle) < target) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

std::vector<TextPosting> TextIndex::postings(std::string_view target) const {
  ensureChecked();
  std::vector<TextPosting> result;
  if (const size_t i = lowerBound(target); i < words_ && word(i) == target) {
    for (uint64_t k = postingOffsets_[i]; k < postingOffsets_[i + 1]; ++k) result.push_back(unpack(ids_[k], counts_[k]));
  }
  if (auto it = added_.words.find(target); it != added_.words.end()) {
    result.insert(result.end(), it->second.begin(), it->second.end());
  }
  return result;
}

void TextIndex::forEachWordStartingWith(std::string_view prefix,
                                        const std::function<void(std::string_view)>& visit) const {
  ensureChecked();
  size_t i = lowerBound(prefix);
  auto it = added_.words.lower_bound(prefix);
  auto stored = [&] { return i < words_ && word(i).starts_with(prefix) ? word(i) : std::string_view(); };
  auto added = [&] {
    return it != added_.words.end() && it->first.starts_with(prefix) ? std::string_view(it->first) : std::string_view();
  };
  // Both in byte order: merged, a word in both visited once. No word is empty.
  for (std::string_view a = stored(), b = added(); !a.empty() || !b.empty(); a = stored(), b = added()) {
    const bool takeStored = !a.empty() && (b.empty() || a <= b);
    const bool takeAdded = !b.empty() && (a.empty() || b <= a);
    visit(takeStored ? a : b);
    if (takeStored) ++i;
    if (takeAdded) ++it;
  }
}

void TextIndex::forEachWordContaining(std::string_view part,
                                      const std::function<void(std::string_view)>& visit) const {
  ensureChecked();
  // The words lie back to back: a hit is a word's when it ends within it; the next search starts at the next word.
  for (size_t at = wordText_.find(part); at != std::string_view::npos;) {
    const auto next = std::upper_bound(wordOffsets_.begin(), wordOffsets_.end(), at);
    const size_t i = static_cast<size_t>(next - wordOffsets_.begin()) - 1;
    if (at + part.size() <= wordOffsets_[i + 1]) visit(word(i));
    at = wordText_.find(part, at + part.size() <= wordOffsets_[i + 1] ? wordOffsets_[i + 1] : at + 1);
  }
  for (const auto& [added, postings] : added_.words) {
    if (added.find(part) == std::string::npos) continue;
    const size_t i = lowerBound(added);
    if (i == words_ || word(i) != added) visit(added);  // a stored word was visited above
  }
}

double TextIndex::averageLength() const {
  const uint64_t literals = this->literals();
  return literals == 0 ? 1.0 : static_cast<double>(literalWords_ + added_.literalWords) / static_cast<double>(literals);
}

void TextIndex::extend(uint32_t firstId, const std::vector<std::string>& terms) {
  Splitters splitters;
  WordMap words;
  LiteralTotals totals;
  for (size_t i = 0; i < terms.size(); ++i) {
    indexTerm(firstId + static_cast<uint32_t>(i), terms[i], splitters, words, totals);
  }
  for (auto& [word, postings] : words) {
    auto& list = added_.words[word];
    list.insert(list.end(), postings.begin(), postings.end());
  }
  added_.literals += totals.literals;
  added_.literalWords += totals.words;
}

}  // namespace gsparql
