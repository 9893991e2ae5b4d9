#include "storage/dictionary.h"

#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdarg>
#include <cstring>
#include <iterator>
#include <memory>
#include <numeric>
#include <span>

#include "rdf/term.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

// Key layout: an uppercase tag + term maps a term to its id; a lowercase tag
// + big-endian id maps back, so both directions iterate in order.
char termToIdTag(TermSpace space) { return space == TermSpace::Vertex ? 'T' : 'P'; }
char idToTermTag(TermSpace space) { return static_cast<char>(space); }

std::string idKey(TermSpace space, uint32_t id) {
  std::string key(5, '\0');
  key[0] = idToTermTag(space);
  for (int i = 0; i < 4; ++i) key[1 + i] = static_cast<char>((id >> (24 - 8 * i)) & 0xFF);
  return key;
}

uint32_t decodeId(std::string_view bytes) {
  uint32_t id = 0;
  for (int i = 0; i < 4; ++i) id = (id << 8) | static_cast<unsigned char>(bytes[i]);
  return id;
}

std::string encodeId(uint32_t id) { return idKey(TermSpace::Vertex, id).substr(1); }

// RocksDB's informational LOG is written after a failed write too, and on a
// full disk Debian's RocksDB asserts there and aborts the process; our
// errors come from the statuses RocksDB returns, so the LOG is not kept.
class DiscardingLogger : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

rocksdb::Options dictionaryOptions() {
  rocksdb::Options options;
  static const auto discarding = std::make_shared<DiscardingLogger>();
  options.info_log = discarding;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.block_cache = rocksdb::NewLRUCache(64 << 20);
  // Indexes and Bloom filters in partitions read through the block cache
  // when a lookup needs them; only their top levels are read at open and
  // kept. A whole filter and index per file, as before, were read at every
  // open: for WatDiv SF100's terms about 2.8 of a 7.3 ms open (2-core VM),
  // and growing with the data. Files written unpartitioned (before this)
  // still open lazily, their filters cached at high priority.
  table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  table.partition_filters = true;
  table.cache_index_and_filter_blocks = true;
  table.metadata_cache_options.top_level_index_pinning = rocksdb::PinningTier::kAll;
  table.metadata_cache_options.partition_pinning = rocksdb::PinningTier::kNone;
  table.metadata_cache_options.unpartitioned_pinning = rocksdb::PinningTier::kNone;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.compression = rocksdb::kLZ4Compression;
  options.max_open_files = -1;
  // Opened read-only by queries: a handful of files, which sixteen threads
  // (the default) opened slower than one, and no compaction to gather
  // statistics for. (1.0 and 0.3 ms of a 3 ms open on WatDiv SF100.)
  options.max_file_opening_threads = 1;
  options.skip_stats_update_on_db_open = true;
  options.paranoid_checks = true;  // the default: a damaged MANIFEST fails the open
  return options;
}

// Every block read from the dictionary's files is checked against its
// checksum before use (the default, stated because answers rely on it: a
// damaged block fails the read instead of decoding to another term).
// Blocks in the block cache were checked when they were read.
rocksdb::ReadOptions checkedReads() {
  rocksdb::ReadOptions read;
  read.verify_checksums = true;
  return read;
}

void check(const rocksdb::Status& status, const std::string& what,
           const std::filesystem::path& path) {
  if (status.ok()) return;
  // RocksDB names the damaged file and offset in the status.
  const std::string prefix = status.IsCorruption() ? "database corrupted: " : "";
  throw StorageError(prefix + what + " " + path.string() + ": " + status.ToString());
}

std::vector<uint32_t> idsSortedByTerm(const NumberedTerms& terms) {
  // The keys once, as views: a comparison then calls nothing.
  std::vector<std::string_view> keys(terms.count);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, terms.count, 1 << 14), [&](const auto& range) {
    for (uint32_t id = range.begin(); id != range.end(); ++id) keys[id] = terms.key(id);
  });
  std::vector<uint32_t> order(terms.count);
  std::iota(order.begin(), order.end(), 0u);
  tbb::parallel_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

void writeTermToId(rocksdb::SstFileWriter& writer, TermSpace space, const NumberedTerms& terms,
                   std::span<const uint32_t> idsByTerm, const std::filesystem::path& path) {
  std::string key;
  for (uint32_t id : idsByTerm) {
    key.assign(1, termToIdTag(space));
    key += terms.key(id);
    check(writer.Put(key, encodeId(id)), "cannot write", path);
  }
}

void writeIdToTerm(rocksdb::SstFileWriter& writer, TermSpace space, const NumberedTerms& terms, uint32_t begin,
                   uint32_t end, const std::filesystem::path& path) {
  for (uint32_t id = begin; id < end; ++id) {
    std::string_view term = terms.term(id);
    check(writer.Put(idKey(space, id), rocksdb::Slice(term.data(), term.size())), "cannot write",
          path);
  }
}

void writeSst(const std::filesystem::path& path, const rocksdb::Options& options,
              const std::function<void(rocksdb::SstFileWriter&)>& body) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  check(writer.Open(path.string()), "cannot create", path);
  body(writer);
  check(writer.Finish(), "cannot finish", path);
}

// One SST file of the dictionary: a range of keys that no other file has.
struct SstPart {
  std::filesystem::path path;
  std::function<void(rocksdb::SstFileWriter&)> write;
};

// A big dictionary is written as many SST files, on all cores, and RocksDB
// ingests them together. Each space's entries are cut into ranges of
// kTermsPerSst: both directions' keys sort by range, so no two files overlap.
constexpr uint32_t kTermsPerSst = uint32_t{1} << 20;

void addSpaceParts(std::vector<SstPart>& parts, const std::filesystem::path& dir, TermSpace space,
                   const NumberedTerms& terms, const std::vector<uint32_t>& idsByTerm) {
  for (uint32_t begin = 0; begin < terms.count; begin += kTermsPerSst) {
    const uint32_t end = std::min(terms.count, begin + kTermsPerSst);
    const std::string stem = dir.string() + "." + static_cast<char>(space) + std::to_string(begin);
    parts.push_back({stem + ".term-to-id.sst", [&terms, &idsByTerm, space, begin, end, path = stem + ".term-to-id.sst"](auto& w) {
                       const auto ids = std::span<const uint32_t>(idsByTerm).subspan(begin, end - begin);
                       writeTermToId(w, space, terms, ids, path);
                     }});
    parts.push_back({stem + ".id-to-term.sst", [&terms, space, begin, end, path = stem + ".id-to-term.sst"](auto& w) {
                       writeIdToTerm(w, space, terms, begin, end, path);
                     }});
  }
}

std::unique_ptr<rocksdb::DB> createDictionary(const std::filesystem::path& dir,
                                              rocksdb::Options options) {
  options.create_if_missing = true;
  options.error_if_exists = true;
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::Open(options, dir.string(), &raw), "cannot create dictionary", dir);
  return std::unique_ptr<rocksdb::DB>(raw);
}

void createEmptyDictionary(const std::filesystem::path& dir, const rocksdb::Options& options) {
  check(createDictionary(dir, options)->Close(), "cannot close", dir);
}

}  // namespace

void writeDictionary(const std::filesystem::path& dir, const NumberedTerms& vertices,
                     const NumberedTerms& predicates) {
  const rocksdb::Options options = dictionaryOptions();
  if (vertices.count + predicates.count == 0) return createEmptyDictionary(dir, options);
  std::vector<uint32_t> verticesByTerm, predicatesByTerm;
  tbb::parallel_invoke([&] { verticesByTerm = idsSortedByTerm(vertices); },
                       [&] { predicatesByTerm = idsSortedByTerm(predicates); });
  std::vector<SstPart> parts;
  addSpaceParts(parts, dir, TermSpace::Predicate, predicates, predicatesByTerm);
  addSpaceParts(parts, dir, TermSpace::Vertex, vertices, verticesByTerm);
  tbb::parallel_for(size_t{0}, parts.size(), [&](size_t i) { writeSst(parts[i].path, options, parts[i].write); });
  auto db = createDictionary(dir, options);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = true;
  std::vector<std::string> files;
  for (const SstPart& part : parts) files.push_back(part.path.string());
  check(db->IngestExternalFile(files, ingest), "cannot ingest into", dir);
  check(db->Close(), "cannot close", dir);
}

Dictionary::Dictionary(const std::filesystem::path& dir) : dir_(dir) {
  rocksdb::DB* raw = nullptr;
  check(rocksdb::DB::OpenForReadOnly(dictionaryOptions(), dir.string(), &raw),
        "cannot open dictionary", dir);
  db_.reset(raw);
  forEach(TermSpace::Predicate, [&](uint32_t id, std::string_view term) { predicateIds_.emplace(term, id); });
}

Dictionary::~Dictionary() = default;
Dictionary::Dictionary(Dictionary&&) noexcept = default;
Dictionary::Dictionary(const Dictionary&) = default;
Dictionary& Dictionary::operator=(Dictionary&&) noexcept = default;

std::optional<uint32_t> Dictionary::id(TermSpace space, std::string_view term) const {
  if (space == TermSpace::Predicate) {
    auto it = predicateIds_.find(std::string(term));
    if (it == predicateIds_.end()) return std::nullopt;
    return it->second;
  }
  std::string key(1, termToIdTag(space));
  key += rdf::termKey(term);
  std::string value;
  auto status = db_->Get(checkedReads(), key, &value);
  if (status.IsNotFound()) {
    auto it = addedVertices_.idsByKey.find(key.substr(1));
    if (it == addedVertices_.idsByKey.end()) return std::nullopt;
    return it->second;
  }
  check(status, "cannot read dictionary", dir_);
  return decodeId(value);
}

std::vector<std::string> Dictionary::terms(TermSpace space, std::span<const uint32_t> ids) const {
  const AddedTerms& extra = added(space);
  if (extra.terms.empty()) return storedTerms(space, ids);
  std::vector<uint32_t> stored;
  for (uint32_t id : ids) {
    if (!extra.holds(id)) stored.push_back(id);
  }
  std::vector<std::string> storedText = storedTerms(space, stored), out;
  out.reserve(ids.size());
  size_t next = 0;
  for (uint32_t id : ids) out.push_back(extra.holds(id) ? extra.terms[id - extra.firstId] : std::move(storedText[next++]));
  return out;
}

void Dictionary::extend(TermSpace space, uint32_t firstId, std::vector<std::string> terms) {
  AddedTerms& extra = space == TermSpace::Vertex ? addedVertices_ : addedPredicates_;
  if (extra.terms.empty()) extra.firstId = firstId;
  for (uint32_t i = 0; i < terms.size(); ++i) {
    if (space == TermSpace::Predicate) {
      predicateIds_.emplace(terms[i], firstId + i);
    } else {
      extra.idsByKey.emplace(rdf::termKey(terms[i]), firstId + i);
    }
  }
  extra.terms.insert(extra.terms.end(), std::make_move_iterator(terms.begin()), std::make_move_iterator(terms.end()));
}

std::vector<std::string> Dictionary::storedTerms(TermSpace space, std::span<const uint32_t> ids) const {
  std::vector<std::string> keys;
  keys.reserve(ids.size());
  for (uint32_t id : ids) keys.push_back(idKey(space, id));
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> values;
  auto statuses = db_->MultiGet(checkedReads(), slices, &values);
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i].IsNotFound()) {
      throw StorageError("dictionary " + dir_.string() + " has no term with id " +
                         std::to_string(ids[i]));
    }
    check(statuses[i], "cannot read dictionary", dir_);
  }
  return values;
}

std::string Dictionary::term(TermSpace space, uint32_t id) const {
  return std::move(terms(space, std::span<const uint32_t>(&id, 1)).front());
}

bool Dictionary::holds(TermSpace space, uint32_t id) const {
  std::string value;
  const auto status = db_->Get(checkedReads(), idKey(space, id), &value);
  if (status.IsNotFound()) return false;
  check(status, "cannot read dictionary", dir_);
  return true;
}

void Dictionary::forEach(TermSpace space,
                         const std::function<void(uint32_t, std::string_view)>& visit) const {
  rocksdb::ReadOptions read = checkedReads();
  read.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read));
  const char tag = idToTermTag(space);
  for (it->Seek(rocksdb::Slice(&tag, 1)); it->Valid() && it->key()[0] == tag; it->Next()) {
    auto key = it->key();
    auto value = it->value();
    visit(decodeId(std::string_view(key.data() + 1, 4)), std::string_view(value.data(), value.size()));
  }
  check(it->status(), "cannot read dictionary", dir_);
  const AddedTerms& extra = added(space);
  for (uint32_t i = 0; i < extra.terms.size(); ++i) visit(extra.firstId + i, extra.terms[i]);
}

void Dictionary::verify() const { check(db_->VerifyChecksum(), "cannot verify dictionary", dir_); }

}  // namespace gsparql
