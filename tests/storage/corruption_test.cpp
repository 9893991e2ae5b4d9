// Damaged database files end queries and `info --verify` with "database
// corrupted: FILE, offset N: ..." — never a crash, never a wrong answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "file_damage.h"
#include "gsparql/database.h"
#include "storage/adjacency_writer.h"
#include "storage/checksum.h"
#include "storage/file_io.h"
#include "storage/fuzz/adjacency_reseal.h"
#include "storage/graph_store.h"
#include "storage/term_column.h"
#include "storage/value_column.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// What `gsparql info --verify` prints when every check passed.
constexpr const char* kVerifiedLine = "checksums   ok";

using EdgeSet = std::set<std::tuple<uint32_t, uint32_t, uint32_t>>;  // predicate, key, neighbour

// Three predicates; subject 0 has many objects, so lists of several lengths.
std::string smallGraph() {
  std::string nt;
  for (int s = 0; s < 40; ++s) {
    for (int p = 0; p < 3; ++p) {
      const int objects = s == 0 ? 30 : 1 + (s + p) % 4;
      for (int o = 0; o < objects; ++o) {
        nt += "<e:s" + std::to_string(s) + "> <e:p" + std::to_string(p) + "> <e:o" + std::to_string((s * 7 + o) % 50) +
              "> .\n";
      }
    }
  }
  return nt;
}

std::filesystem::path loadSmallGraph(const TempDir& dir) {
  writeFile(dir / "graph.nt", smallGraph());
  Database::load(dir / "db", {(dir / "graph.nt").string()});
  return dir / "db";
}

std::filesystem::path generationFile(const std::filesystem::path& db, const char* name) {
  return GraphStore(db).generation().dir / name;
}

// Every edge, read through both views of every predicate.
EdgeSet readAllEdges(const AdjacencyFile& file) {
  EdgeSet edges;
  for (uint32_t p = 0; p < file.predicateCount(); ++p) {
    const PredicateAdjacency& a = file.predicate(p);
    for (size_t k = 0; k < a.keys().size(); ++k) {
      for (uint32_t n : a.neighboursAt(k)) edges.emplace(p, a.keys()[k], n);
      for (uint32_t n : a.neighbours(a.keys()[k])) edges.emplace(p, a.keys()[k], n);
    }
  }
  return edges;
}

void requireCorruptionReported(const StorageError& e, const std::filesystem::path& file) {
  REQUIRE_MESSAGE(std::string(e.what()).starts_with("database corrupted: " + file.string() + ", offset "), e.what());
}

template <typename T>
T readAt(const std::string& bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

template <typename T>
void writeAt(std::string& bytes, uint64_t offset, const T& value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

// Recomputes every checksum of an adjacency file after an edit, as a buggy
// writer (or a forger) would: only the format's rules can then catch the edit.
void resealChecksums(const std::filesystem::path& file) {
  std::string bytes = readWholeFile(file);
  fuzz::resealAdjacency(bytes);
  makeWritable(file);
  writeFile(file, bytes);
}

pcsr::PredicateSection sectionOf(const std::filesystem::path& file, uint32_t predicate) {
  std::string bytes = readWholeFile(file);
  auto header = readAt<pcsr::FileHeader>(bytes, 0);
  return readAt<pcsr::PredicateSection>(bytes, header.tocOffset + predicate * sizeof(pcsr::PredicateSection));
}

// dir/test.pcsr with `edges` for predicate `predicate`, the predicates before it empty.
std::filesystem::path writeAdjacency(const TempDir& dir, uint32_t predicate, std::span<const Edge> edges) {
  const auto file = dir / "test.pcsr";
  AdjacencyWriter writer(file, pcsr::Direction::Out);
  writer.addPredicate(predicate, edges);
  writer.finish(predicate + 1);
  return file;
}

void overwriteWord(const std::filesystem::path& file, uint64_t offset, uint32_t value) {
  std::string bytes = readWholeFile(file);
  writeAt(bytes, offset, value);
  makeWritable(file);
  writeFile(file, bytes);
}

// The id of a vertex term and "block B (ids F to L)", its block in a column
// of `idsPerBlock` ids per block.
std::pair<uint32_t, std::string> vertexAndBlock(const GraphStore& store, const std::string& term, uint32_t idsPerBlock) {
  const uint32_t id = store.dictionary().id(TermSpace::Vertex, term).value();
  return {id, blocksOf(store.catalog().vertexCount, idsPerBlock).name(id / idsPerBlock)};
}

std::string corruptedBlock(const std::filesystem::path& file, uint64_t offset, const std::string& block) {
  return "database corrupted: " + file.string() + ", offset " + std::to_string(offset) + ": " + block +
         ": checksum mismatch";
}

// A query's failure through the API, `gsparql query` and `info --verify`.
void requireFailsEverywhere(const std::filesystem::path& db, const char* query, const std::string& expected) {
  CHECK_THROWS_WITH_AS(sortedLines(Database(db).query(query)), expected.c_str(), StorageError);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"query", "--db", db.string(), query},
                                               std::vector<std::string>{"info", "--db", db.string(), "--verify"}}) {
    const auto result = runCli(args);
    CHECK(result.signal == 0);
    CHECK(result.exitCode == 1);
    CHECK_MESSAGE(result.output.find(expected) != std::string::npos, result.output);
    CHECK(result.output.find(kVerifiedLine) == std::string::npos);
  }
}

// Where the length of the last record of a RocksDB log file (a MANIFEST)
// lies: each record is a 7-byte header (CRC-32C, uint16 length, type), then
// its bytes.
uint64_t lastRecordLengthOffset(const std::string& log) {
  uint64_t at = 0, last = 0;
  while (at + 7 <= log.size()) {
    last = at;
    at += 7 + readAt<uint16_t>(log, at + 4);
  }
  return last + 4;
}

}  // namespace

TEST_CASE("a MANIFEST whose last record RocksDB takes for one a crash cut short fails the open, not a lookup") {
  TempDir dir;
  const auto db = loadSmallGraph(dir);
  const auto dictionary = GraphStore(db).generation().dir / kDictionaryDir;
  for (const auto& entry : std::filesystem::directory_iterator(dictionary)) {
    if (!entry.path().filename().string().starts_with("MANIFEST-")) continue;
    // The length's high bit: the record seems to run past the end of the file,
    // and RocksDB opens the dictionary without the files it adds.
    flipBits(entry.path(), static_cast<std::streamoff>(lastRecordLengthOffset(readWholeFile(entry.path())) + 1), 0x80);
  }
  const std::string expected = "database corrupted: " + dictionary.string() +
                               ": the dictionary lacks the catalog's last terms, as when its MANIFEST is damaged";
  CHECK_THROWS_WITH_AS(Database{db}, expected.c_str(), StorageError);
}

TEST_CASE("a damaged term fails the query that would answer it, with the file and block, never a wrong term") {
  TempDir dir;
  const auto db = loadSmallGraph(dir);
  const auto file = generationFile(db, kTermsFile);
  const auto [id, block] = vertexAndBlock(GraphStore(db), "<e:o5>", kTermsPerBlock);
  const std::string bytes = readWholeFile(file);
  const uint64_t count = GraphStore(db).catalog().vertexCount;
  const uint64_t text = sizeof(TermColumnHeader) + (count + 1) * sizeof(uint64_t) +
                        readAt<uint64_t>(bytes, sizeof(TermColumnHeader) + id * sizeof(uint64_t));
  // "<e:o5>" would read "<e:o4>", as WatDiv's "wsdbm:Offer567" read "wsdbm:Ofver567" before blocks had checksums.
  flipBits(file, static_cast<std::streamoff>(text + 4), 0x01);
  const uint64_t blockStart = sizeof(TermColumnHeader) + id / kTermsPerBlock * kTermsPerBlock * sizeof(uint64_t);
  requireFailsEverywhere(db, "SELECT ?o WHERE { <e:s0> <e:p0> ?o }", corruptedBlock(file, blockStart, block));
}

TEST_CASE("a damaged typed value fails the FILTER that would compare it, with the file and block") {
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 600; ++i) {
    nt += "<e:s" + std::to_string(i) + "> <e:n> \"" + std::to_string(i) + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  }
  writeFile(dir / "numbers.nt", nt);
  const auto db = dir / "db";
  Database::load(db, {(dir / "numbers.nt").string()});
  const char* query = "SELECT ?s WHERE { ?s <e:n> ?n FILTER(?n < 10) }";
  REQUIRE(Database(db).query(query).rowCount() == 10);
  const auto file = generationFile(db, kValuesFile);
  const auto [id, block] =
      vertexAndBlock(GraphStore(db), "\"500\"^^<http://www.w3.org/2001/XMLSchema#integer>", kValuesPerBlock);
  const uint64_t entry = sizeof(ValueFileHeader) + uint64_t{id} * sizeof(rdf::TypedValue);
  // The sign bit of the integer (bytes 8 to 15): 500 would pass the FILTER as a negative number.
  flipBits(file, static_cast<std::streamoff>(entry + 15), 0x80);
  const uint64_t blockStart = sizeof(ValueFileHeader) + id / kValuesPerBlock * kValuesPerBlock * sizeof(rdf::TypedValue);
  requireFailsEverywhere(db, query, corruptedBlock(file, blockStart, block));
}

TEST_CASE("term and value columns of format 1 are still read, each checked whole on its first read") {
  // tests/data/format1/db: written before the columns had blocks.
  TempDir dir;
  const auto db = dir / "old";
  std::filesystem::copy(dataFile("format1/db"), db, std::filesystem::copy_options::recursive);
  const char* query = "SELECT ?n WHERE { ?a <http://e/name> ?n } ORDER BY ?n";
  const auto before = sortedLines(Database(db).query(query));
  Database(db).verify();
  for (const std::string name : {kTermsFile, kValuesFile}) {
    CAPTURE(name);
    const auto file = generationFile(db, name.c_str());
    const uint64_t count = GraphStore(db).catalog().vertexCount;
    // The last byte: in format 1 the terms' text and the values' entries end the file.
    const auto last = static_cast<std::streamoff>(std::filesystem::file_size(file) - 1);
    flipBits(file, last, 0x01);
    const uint64_t start = name == kTermsFile ? sizeof(TermColumnHeader) : sizeof(ValueFileHeader);
    const std::string expected = corruptedBlock(file, start, "block 0 (ids 0 to " + std::to_string(count - 1) + ")");
    CHECK_THROWS_WITH_AS(Database(db).verify(), expected.c_str(), StorageError);
    GraphStore store(db);
    if (name == kTermsFile) {
      CHECK_THROWS_WITH_AS(store.terms()->term(0), expected.c_str(), StorageError);
    } else {
      CHECK_THROWS_WITH_AS(store.values()->at(0), expected.c_str(), StorageError);
    }
    flipBits(file, last, 0x01);
    CHECK(sortedLines(Database(db).query(query)) == before);
  }
}

TEST_CASE("a flipped bit in an adjacency file is reported as corruption or changes nothing") {
  TempDir dir;
  const auto db = loadSmallGraph(dir);
  const uint64_t vertexCount = GraphStore(db).catalog().vertexCount;
  for (const char* name : {kOutAdjacencyFile, kInAdjacencyFile}) {
    const auto file = generationFile(db, name);
    const EdgeSet pristine = readAllEdges(AdjacencyFile(file, vertexCount));
    const auto size = static_cast<std::streamoff>(std::filesystem::file_size(file));
    int reported = 0;
    // Every 7th byte (7 is prime to the 4-byte words and 128-byte groups, so
    // every position within them is hit); each flip costs a map and unmap.
    for (std::streamoff offset = 0; offset < size; offset += 7) {
      CAPTURE(offset);
      const auto bit = static_cast<unsigned char>(1u << (offset % 8));
      flipBits(file, offset, bit);
      try {
        const EdgeSet edges = readAllEdges(AdjacencyFile(file, vertexCount));
        REQUIRE(edges == pristine);  // the bit was in padding between arrays
      } catch (const StorageError& e) {
        requireCorruptionReported(e, file);
        ++reported;
      }
      flipBits(file, offset, bit);
    }
    CHECK(reported > size / 7 / 2);
  }
}

TEST_CASE("a query over a damaged adjacency file fails with the file and offset, in the API and the CLI") {
  TempDir dir;
  const auto db = loadSmallGraph(dir);
  const auto file = generationFile(db, kOutAdjacencyFile);
  const auto section = sectionOf(file, 0);
  // A lookup of <e:s0>'s objects reads its group and its list in the group-ordered neighbours (the PCSR).
  flipBits(file, static_cast<std::streamoff>(section.groupNeighboursOffset + 5), 0x10);
  const std::string expected = "database corrupted: " + file.string() + ", offset " +
                               std::to_string(section.groupNeighboursOffset) + ": predicate 0: block checksum mismatch";
  QueryOptions cpu;
  cpu.backend = Backend::Cpu;
  const char* query = "SELECT ?o WHERE { <e:s0> <e:p0> ?o }";  // a lookup in out.pcsr
  CHECK_THROWS_WITH_AS(Database(db).query(query, cpu), expected.c_str(), StorageError);
  // Another predicate of the same file is undamaged and still answers.
  CHECK(Database(db).query("SELECT * WHERE { ?s <e:p1> ?o }", cpu).rowCount() > 0);

  auto result = runCli({"query", "--db", db.string(), "--backend", "cpu", query});
  CHECK(result.signal == 0);
  CHECK(result.exitCode == 1);
  CHECK(result.output.find(expected) != std::string::npos);
  result = runCli({"info", "--db", db.string(), "--verify"});
  CHECK(result.exitCode == 1);
  CHECK(result.output.find(expected) != std::string::npos);
  CHECK(result.output.find(kVerifiedLine) == std::string::npos);
}

TEST_CASE("damage in a block a query does not read leaves its answer whole, and verify finds it") {
  TempDir dir;
  const auto db = loadSmallGraph(dir);
  const auto file = generationFile(db, kOutAdjacencyFile);
  const auto section = sectionOf(file, 0);
  QueryOptions cpu;
  cpu.backend = Backend::Cpu;
  const char* lookup = "SELECT ?o WHERE { <e:s0> <e:p0> ?o }";  // the PCSR's group and list only
  const std::vector<std::string> before = sortedLines(Database(db).query(lookup, cpu));
  REQUIRE(before.size() == 30);  // <e:s0>'s objects
  // The plain CSR's neighbours, which scans read and a lookup does not.
  flipBits(file, static_cast<std::streamoff>(section.neighboursOffset + 5), 0x10);
  CHECK(sortedLines(Database(db).query(lookup, cpu)) == before);
  const std::string expected = "database corrupted: " + file.string() + ", offset " +
                               std::to_string(section.neighboursOffset) + ": predicate 0: block checksum mismatch";
  CHECK_THROWS_WITH_AS(Database(db).verify(), expected.c_str(), StorageError);
  // A dump reads the plain CSR, the damaged block with it, and fails.
  std::ostringstream dump;
  CHECK_THROWS_WITH_AS(Database(db).dump(dump), expected.c_str(), StorageError);
}

TEST_CASE("data that matches its checksums but breaks the format's rules is caught before it is read") {
  // Predicate 1: keys 3, 5, 8 with 2, 1 and 3 neighbours; predicate 0 stays empty.
  const std::vector<Edge> edges = {{3, 1}, {3, 2}, {5, 9}, {8, 0}, {8, 4}, {8, 6}};
  const uint64_t vertexCount = 10;
  TempDir dir;
  const auto file = writeAdjacency(dir, 1, edges);
  const auto s = sectionOf(file, 1);
  // Key 3 is the first key placed, so it has slot 0 of its primary group.
  const uint64_t groupOfKey3 = s.groupsOffset + sizeof(pcsr::Group) * pcsr::primaryGroupOf(3, pcsr::primaryGroupCount(s.keyCount));
  const uint64_t tocEntry = readAt<pcsr::FileHeader>(readWholeFile(file), 0).tocOffset + sizeof(pcsr::PredicateSection);

  struct Damage {
    const char* what;
    uint64_t offset;  // of the word overwritten
    uint32_t value;
    uint64_t reportedOffset;
    const char* message;
  };
  const Damage damages[] = {
      {"a neighbour beyond the vertices", s.neighboursOffset + 4, 10, s.neighboursOffset + 4,
       "predicate 1: neighbour is no vertex id"},
      {"keys out of order", s.keysOffset + 4, 2, s.keysOffset + 4, "predicate 1: keys out of order or not vertex ids"},
      {"offsets going back", s.offsetsOffset + 8, 1, s.offsetsOffset + 8,
       "predicate 1: offsets out of order or out of range"},
      {"an empty list", s.offsetsOffset + 4, 0, s.offsetsOffset + 4, "predicate 1: offsets out of order or out of range"},
      {"a chain looping back to its group", groupOfKey3 + 30 * 4, pcsr::primaryGroupOf(3, pcsr::primaryGroupCount(s.keyCount)), groupOfKey3,
       "predicate 1: group slots or chain out of range"},
      {"a slot's list ending past the edges", groupOfKey3 + 31 * 4, 7, groupOfKey3,
       "predicate 1: group slots or chain out of range"},
      {"a section pointing past the data", tocEntry, 1u << 20, tocEntry,
       "predicate 1: an array lies outside the data area"},
  };
  const std::string pristine = readWholeFile(file);
  for (const Damage& d : damages) {
    CAPTURE(d.what);
    overwriteWord(file, d.offset, d.value);
    resealChecksums(file);
    const std::string expected =
        "database corrupted: " + file.string() + ", offset " + std::to_string(d.reportedOffset) + ": " + d.message;
    // Every read of the data reaches the broken element's block and fails; so does a check of everything.
    CHECK_THROWS_WITH_AS(readAllEdges(AdjacencyFile(file, vertexCount)), expected.c_str(), StorageError);
    CHECK_THROWS_WITH_AS(AdjacencyFile(file, vertexCount).verify(), expected.c_str(), StorageError);
    writeFile(file, pristine);
  }
  CHECK(readAllEdges(AdjacencyFile(file, vertexCount)).size() == edges.size());
}

TEST_CASE("an adjacency file of a format version this build does not know is refused with its version") {
  TempDir dir;
  const auto file = dir / "test.pcsr";
  AdjacencyWriter writer(file, pcsr::Direction::Out);
  writer.addPredicate(0, std::vector<Edge>{{1, 2}});
  writer.finish(1);
  for (uint32_t version : {0u, pcsr::kFormatVersion + 1}) {
    CAPTURE(version);
    overwriteWord(file, offsetof(pcsr::FileHeader, version), version);
    resealChecksums(file);
    const std::string expected = "database corrupted: " + file.string() + ", offset " +
                                 std::to_string(offsetof(pcsr::FileHeader, version)) + ": format version " +
                                 std::to_string(version) + ", expected 1 to " + std::to_string(pcsr::kFormatVersion);
    CHECK_THROWS_WITH_AS(AdjacencyFile(file, 10), expected.c_str(), StorageError);
  }
}

TEST_CASE("info --verify checks the dictionary's blocks too") {
  TempDir dir;
  const auto db = loadSmallGraph(dir);
  REQUIRE(runCli({"info", "--db", db.string(), "--verify"}).output.find(kVerifiedLine) != std::string::npos);
  // A damaged block that opening the database does not read: only a
  // verification finds it before a query does.
  int foundByVerify = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GraphStore(db).generation().dir / kDictionaryDir)) {
    if (entry.path().extension() != ".sst") continue;
    CAPTURE(entry.path());
    flipBits(entry.path(), 20);  // inside the first data block
    try {
      Database damaged(db);
      CHECK_THROWS_WITH_AS(damaged.verify(), doctest::Contains("database corrupted: cannot verify dictionary"),
                           StorageError);
      auto result = runCli({"info", "--db", db.string(), "--verify"});
      CHECK(result.exitCode == 1);
      CHECK(result.output.find("database corrupted") != std::string::npos);
      CHECK(result.output.find("block checksum mismatch") != std::string::npos);
      CHECK(result.output.find(kVerifiedLine) == std::string::npos);
      ++foundByVerify;
    } catch (const StorageError& e) {
      CHECK(std::string(e.what()).starts_with("database corrupted: cannot read dictionary"));  // found at open
    }
    flipBits(entry.path(), 20);
  }
  CHECK(foundByVerify > 0);
  Database(db).verify();
}

TEST_CASE("blockSum is xxHash's XXH3, the sum of one piece seeding the next") {
  const std::string text = "123456789", more = "abc";
  const auto low32 = [](uint64_t sum) { return static_cast<uint32_t>(sum); };
  CHECK(blockSum(0, text.data(), text.size()) == low32(XXH3_64bits_withSeed(text.data(), text.size(), 0)));
  const uint32_t first = blockSum(0, text.data(), text.size());
  CHECK(blockSum(first, more.data(), more.size()) == low32(XXH3_64bits_withSeed(more.data(), more.size(), first)));
  std::string block(2048, 'x');  // a block of terms: every single-bit flip changes its sum
  const uint32_t intact = blockSum(0, block.data(), block.size());
  int unchanged = 0;
  for (size_t bit = 0; bit < block.size() * 8; ++bit) {
    block[bit / 8] = static_cast<char>(block[bit / 8] ^ (1 << (bit % 8)));
    unchanged += blockSum(0, block.data(), block.size()) == intact;
    block[bit / 8] = static_cast<char>(block[bit / 8] ^ (1 << (bit % 8)));
  }
  CHECK(unchanged == 0);
}

TEST_CASE("a lookup checks the blocks it reads: damage elsewhere in the same array is found when that is read") {
  // 10,000 keys with 10 neighbours each: the plain neighbours take 400,000 bytes, 98 blocks.
  std::vector<Edge> edges;
  for (uint32_t k = 0; k < 10000; ++k) {
    for (uint32_t n = 0; n < 10; ++n) edges.push_back({k * 2, 10000 + k + n * 100});
  }
  const uint64_t vertexCount = 30000;
  TempDir dir;
  const auto file = writeAdjacency(dir, 0, edges);
  const auto s = sectionOf(file, 0);
  {
    // The lookups that read element by element agree with the whole arrays.
    const AdjacencyFile pristine(file, vertexCount);
    const PredicateAdjacency& a = pristine.predicate(0);
    for (uint64_t e : {uint64_t{0}, uint64_t{9}, uint64_t{10}, uint64_t{54321}, uint64_t{99999}}) {
      CAPTURE(e);
      const size_t key = a.keyIndexOfEdge(e);
      CHECK(key == e / 10);
      CHECK(a.key(key) == a.keys()[key]);
      CHECK(a.neighbourAt(e) == a.neighbours()[e]);
    }
    CHECK(std::ranges::equal(a.neighboursByBinarySearch(8000), a.neighbours(8000)));
    CHECK(a.neighboursByBinarySearch(8001).empty());
  }
  const uint64_t block = pcsr::kCheckBlockBytes;
  flipBits(file, static_cast<std::streamoff>(s.neighboursOffset + 3 * block + 100), 0x04);
  const std::string expected = "database corrupted: " + file.string() + ", offset " +
                               std::to_string(s.neighboursOffset + 3 * block) + ": predicate 0: block checksum mismatch";
  const AdjacencyFile damaged(file, vertexCount);
  const PredicateAdjacency& a = damaged.predicate(0);
  CHECK(a.neighboursAt(0).size() == 10);                // block 0
  CHECK(a.neighbours(2 * 9999).size() == 10);           // the PCSR's blocks
  const size_t inBlock3 = 3 * block / sizeof(uint32_t) / 10 + 5;
  CHECK_THROWS_WITH_AS(a.neighboursAt(inBlock3), expected.c_str(), StorageError);
  CHECK_THROWS_WITH_AS(a.neighboursAt(inBlock3), expected.c_str(), StorageError);  // a failed block stays failed
  CHECK(a.neighboursAt(inBlock3 + 2000).size() == 10);  // a later block
  CHECK_THROWS_WITH_AS(a.neighbours(), expected.c_str(), StorageError);
  CHECK_THROWS_WITH_AS(damaged.verify(), expected.c_str(), StorageError);
}
