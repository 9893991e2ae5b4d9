#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>

#include "gsparql/database.h"
#include "storage/adjacency_writer.h"
#include "storage/checksum.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
using pcsr::kNone;
using pcsr::kSlotsPerGroup;

namespace {

uint32_t usedSlots(const pcsr::Group& g) {
  uint32_t n = 0;
  while (n < kSlotsPerGroup && g.words[2 * n] != kNone) ++n;
  return n;
}

// The layout rules of pcsr_format.h, checked group by group.
void checkGroupLayout(const PredicateAdjacency& a) {
  const auto& s = a.section();
  REQUIRE(s.groupCount >= a.primaryGroups());
  uint32_t keysInGroups = 0;
  std::vector<int> referencedBy(s.groupCount, 0);
  for (uint32_t g = 0; g < s.groupCount; ++g) {
    const auto& group = a.groups()[g];
    uint32_t used = usedSlots(group);
    keysInGroups += used;
    for (uint32_t slot = used; slot < kSlotsPerGroup; ++slot) CHECK(group.words[2 * slot] == kNone);
    for (uint32_t slot = 0; slot + 1 < used; ++slot) {
      CHECK(group.words[2 * slot + 1] <= group.words[2 * slot + 3]);
    }
    if (used > 0) CHECK(group.words[2 * (used - 1) + 1] <= group.words[31]);
    if (group.words[30] != kNone) {
      CHECK(used == kSlotsPerGroup);  // a chain grows only from a full group
      REQUIRE(group.words[30] >= a.primaryGroups());  // overflow groups follow the primary ones
      REQUIRE(group.words[30] < s.groupCount);
      ++referencedBy[group.words[30]];
    }
  }
  CHECK(keysInGroups == s.keyCount);
  for (uint32_t g = a.primaryGroups(); g < s.groupCount; ++g) CHECK(referencedBy[g] == 1);
}

void checkLookups(const PredicateAdjacency& a) {
  for (size_t k = 0; k < a.keys().size(); ++k) {
    auto viaGroups = a.neighbours(a.keys()[k]);
    auto plain = a.neighboursAt(k);
    REQUIRE(std::equal(viaGroups.begin(), viaGroups.end(), plain.begin(), plain.end()));
    CHECK(std::is_sorted(plain.begin(), plain.end()));
    CHECK(std::adjacent_find(plain.begin(), plain.end()) == plain.end());
  }
  CHECK(std::is_sorted(a.keys().begin(), a.keys().end()));
}

bool contains(std::span<const uint32_t> list, uint32_t v) {
  return std::binary_search(list.begin(), list.end(), v);
}

}  // namespace

TEST_CASE("every stored triple is found through both directions of the PCSR") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  const auto& out = store.adjacency(pcsr::Direction::Out);
  const auto& in = store.adjacency(pcsr::Direction::In);
  uint64_t triples = 0;
  for (uint32_t p = 0; p < out.predicateCount(); ++p) {
    CAPTURE(p);
    const auto& forward = out.predicate(p);
    const auto& backward = in.predicate(p);
    checkGroupLayout(forward);
    checkGroupLayout(backward);
    checkLookups(forward);
    checkLookups(backward);
    CHECK(forward.section().edgeCount == backward.section().edgeCount);
    for (size_t k = 0; k < forward.keys().size(); ++k) {
      uint32_t s = forward.keys()[k];
      for (uint32_t o : forward.neighboursAt(k)) {
        REQUIRE(contains(forward.neighbours(s), o));
        REQUIRE(contains(backward.neighbours(o), s));
        ++triples;
      }
    }
    CHECK(forward.neighbours(kNone - 1).empty());
  }
  CHECK(triples == 106012);
}

TEST_CASE("colliding keys fill a group and chain overflow groups") {
  // 40 keys that all hash to group 0 of 13, plus 60 keys in the other 12.
  const uint32_t keyCount = 100;
  const uint32_t primaryGroups = pcsr::primaryGroupCount(keyCount);
  REQUIRE(primaryGroups == 13);
  std::vector<uint32_t> keys;
  for (uint32_t v = 0; keys.size() < 40; ++v) {
    if (pcsr::primaryGroupOf(v, primaryGroups) == 0) keys.push_back(v);
  }
  std::mt19937 random(7);
  while (keys.size() < keyCount) {
    uint32_t v = random() % 1000000;
    if (pcsr::primaryGroupOf(v, primaryGroups) != 0 && std::find(keys.begin(), keys.end(), v) == keys.end()) {
      keys.push_back(v);
    }
  }
  std::sort(keys.begin(), keys.end());
  std::vector<Edge> edges;
  for (uint32_t k : keys) {
    for (uint32_t n = 0; n < 1 + k % 5; ++n) edges.push_back(Edge{k, k * 7 + n});
  }
  TempDir dir;
  AdjacencyWriter writer(dir / "test.pcsr", pcsr::Direction::Out);
  writer.addPredicate(1, edges);  // predicate 0 stays empty
  writer.finish(3);
  AdjacencyFile file(dir / "test.pcsr");
  file.verify();
  REQUIRE(file.predicateCount() == 3);
  CHECK(file.predicate(0).keys().empty());
  CHECK(file.predicate(2).neighbours(5).empty());
  const auto& a = file.predicate(1);
  CHECK(a.section().keyCount == keyCount);
  CHECK(a.primaryGroups() == primaryGroups);
  CHECK(a.section().groupCount == primaryGroups + 2);  // 40 colliding keys: 15 + 15 + 10
  CHECK(a.section().longestChain == 3);
  checkGroupLayout(a);
  checkLookups(a);
  for (uint32_t k : keys) CHECK(a.neighbours(k).size() == 1 + k % 5);
}

TEST_CASE("a corrupted adjacency file is detected") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("load/tricky.nt")});
  auto generation = currentGeneration(dir.path());
  REQUIRE(generation);
  auto file = generation->dir / kOutAdjacencyFile;
  std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(sizeof(pcsr::FileHeader) + 56);  // the first 128-byte block after the header: predicate 0's keys
    f.put('\x5a');
  }
  CHECK_THROWS_WITH_AS(Database(dir.path()).verify(), doctest::Contains("checksum mismatch"), StorageError);
  std::filesystem::resize_file(file, 100);
  CHECK_THROWS_WITH_AS(Database(dir.path()), doctest::Contains("out.pcsr"), StorageError);
}

namespace {

uint32_t formatVersionOf(const std::filesystem::path& file) {
  pcsr::FileHeader header{};
  std::ifstream in(file, std::ios::binary);
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  REQUIRE(in);
  return header.version;
}

// An older database in tests/data (format1/people.nt loaded by the build of that
// format): it opens, every section passes its checks (`perPredicate` adds
// the format's own), queries answer as on a fresh load, and a load over it
// writes the current format.
template <typename PerPredicate>
void checkOlderDatabase(const std::filesystem::path& source, uint32_t version, PerPredicate&& perPredicate) {
  TempDir dir;
  const auto old = dir / "old";
  std::filesystem::copy(source, old, std::filesystem::copy_options::recursive);
  {
    GraphStore store(old);
    REQUIRE(formatVersionOf(store.generation().dir / kOutAdjacencyFile) == version);
    for (auto direction : {pcsr::Direction::Out, pcsr::Direction::In}) {
      const auto& file = store.adjacency(direction);
      file.verify();
      for (uint32_t p = 0; p < file.predicateCount(); ++p) {
        const auto& a = file.predicate(p);
        perPredicate(a);
        checkGroupLayout(a);
        checkLookups(a);
      }
    }
  }
  const auto fresh = dir / "fresh";
  Database::load(fresh, {dataFile("format1/people.nt")});  // what every fixture holds
  const std::string query = "SELECT ?a ?b ?n WHERE { ?a <http://e/knows> ?b . ?b <http://e/name> ?n }";
  const std::string constant = "SELECT ?b WHERE { <http://e/p7> <http://e/knows> ?b }";
  for (const auto& q : {query, constant}) {
    CAPTURE(q);
    CHECK(sortedLines(Database(old).query(q)) == sortedLines(Database(fresh).query(q)));
  }
  writeFile(dir / "more.nt", "<http://e/p7> <http://e/knows> <http://e/p8> .\n");
  Database::load(old, {(dir / "more.nt").string()});
  Database::load(fresh, {(dir / "more.nt").string()});
  GraphStore store(old);
  CHECK(formatVersionOf(store.generation().dir / kOutAdjacencyFile) == pcsr::kFormatVersion);
  CHECK(sortedDump(old) == sortedDump(fresh));
  CHECK(sortedLines(Database(old).query(query)) == sortedLines(Database(fresh).query(query)));
}

template <typename PerPredicate>
void checkOlderFormat(const std::string& fixture, uint32_t version, PerPredicate&& perPredicate) {
  checkOlderDatabase(dataFile(fixture + "/db"), version, perPredicate);
}

// An adjacency file of format 4 rewritten as format 3 wrote it: the same
// arrays, each section's sum the sum of its 1 MiB blocks (sectionSum), and
// no table of block sums after the table of contents.
void rewriteAsFormat3(const std::filesystem::path& file) {
  std::string bytes = readWholeFile(file);
  pcsr::FileHeader header{};
  std::memcpy(&header, bytes.data(), sizeof header);
  REQUIRE(header.version == 4);
  auto* toc = reinterpret_cast<pcsr::PredicateSection*>(bytes.data() + header.tocOffset);
  const auto array = [&](uint64_t offset, uint64_t size) {
    return std::span(reinterpret_cast<const std::byte*>(bytes.data()) + offset, size);
  };
  for (uint32_t p = 0; p < header.predicateCount; ++p) {
    pcsr::PredicateSection& s = toc[p];
    s.dataChecksum = sectionSum({array(s.keysOffset, 4ull * s.keyCount), array(s.offsetsOffset, 4ull * (s.keyCount + 1)),
                                 array(s.neighboursOffset, 4ull * s.edgeCount),
                                 array(s.groupsOffset, sizeof(pcsr::Group) * s.groupCount),
                                 array(s.groupNeighboursOffset, 4ull * s.edgeCount)});
  }
  header.tocChecksum = crc32Update(0, toc, header.predicateCount * sizeof(pcsr::PredicateSection));
  bytes.resize(header.blockSumsOffset);
  header.version = 3;
  header.fileSize = bytes.size();
  header.blockSumsOffset = 0;
  header.headerChecksum = crc32Update(0, &header, offsetof(pcsr::FileHeader, headerChecksum));
  std::memcpy(bytes.data(), &header, sizeof header);
  std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  writeFile(file, bytes);
}

}  // namespace

TEST_CASE("a database of format 1 (a primary group per key) is still read, and a load over it writes the current format") {
  checkOlderFormat("format1", 1, [](const PredicateAdjacency& a) { CHECK(a.primaryGroups() == a.section().keyCount); });
}

TEST_CASE("a database of format 3 (a sum per section, no block sums) is still read and checked per section, and a load over it writes the current format") {
  TempDir dir;
  Database::load(dir / "db", {dataFile("format1/people.nt")});
  const auto generation = GraphStore(dir / "db").generation().dir;
  for (const char* name : {kOutAdjacencyFile, kInAdjacencyFile}) rewriteAsFormat3(generation / name);
  checkOlderDatabase(dir / "db", 3, [](const PredicateAdjacency& a) { CHECK(a.primaryGroups() < a.section().keyCount); });
  // Checked whole on the first use of a predicate: a flipped byte of data fails the section's sum.
  const auto file = generation / kOutAdjacencyFile;
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(sizeof(pcsr::FileHeader) + 56);  // predicate 0's keys
    f.put('\x5a');
  }
  CHECK_THROWS_WITH_AS(Database(dir / "db").verify(), doctest::Contains("data checksum mismatch"), StorageError);
}

TEST_CASE("a database of format 2 (CRC-32 sums) is still read and its sums checked, and a load over it writes the current format") {
  checkOlderFormat("format2", 2, [](const PredicateAdjacency& a) { CHECK(a.primaryGroups() < a.section().keyCount); });
  // A flipped byte in a section's data fails format 2's CRC-32 as it fails the later formats' sums.
  TempDir dir;
  std::filesystem::copy(dataFile("format2/db"), dir / "db", std::filesystem::copy_options::recursive);
  const auto file = dir / "db" / "gen-000001" / kOutAdjacencyFile;
  std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(sizeof(pcsr::FileHeader) + 56);  // predicate 0's keys
    f.put('\x5a');
  }
  CHECK_THROWS_WITH_AS(Database(dir / "db").verify(), doctest::Contains("checksum mismatch"), StorageError);
}
