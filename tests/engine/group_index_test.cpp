// GROUP BY's hash table of groups (engine/physical/group_index.h).
#include <doctest/doctest.h>

#include <vector>

#include "engine/physical/group_index.h"

using gsparql::engine::GroupIndex;
using gsparql::engine::ValueId;

TEST_CASE("GroupIndex numbers groups in order of first appearance and finds them again") {
  GroupIndex index(2);
  CHECK(index.findOrAdd(std::vector<ValueId>{7, 1}) == std::pair<size_t, bool>{0, true});
  CHECK(index.findOrAdd(std::vector<ValueId>{1, 7}) == std::pair<size_t, bool>{1, true});
  CHECK(index.findOrAdd(std::vector<ValueId>{7, 1}) == std::pair<size_t, bool>{0, false});
  CHECK(index.findOrAdd(std::vector<ValueId>{0, 0}) == std::pair<size_t, bool>{2, true});  // unbound keys group too
  CHECK(index.size() == 3);
  CHECK(std::vector<ValueId>(index.key(1).begin(), index.key(1).end()) == std::vector<ValueId>{1, 7});
  index.clear();
  CHECK(index.size() == 0);
  CHECK(index.findOrAdd(std::vector<ValueId>{1, 7}) == std::pair<size_t, bool>{0, true});
}

TEST_CASE("GroupIndex keeps every group as it grows") {
  GroupIndex index(1);
  constexpr ValueId kGroups = 100000;
  size_t wrong = 0;
  for (ValueId round = 0; round < 2; ++round) {
    for (ValueId k = 0; k < kGroups; ++k) {
      const auto [group, added] = index.findOrAdd(std::vector<ValueId>{k * 0x10000 + 3});
      wrong += group != k || added != (round == 0);
    }
  }
  CHECK(wrong == 0);
  CHECK(index.size() == kGroups);
}

TEST_CASE("GroupIndex without keys: one group") {
  GroupIndex index(0);
  CHECK(index.findOrAdd({}) == std::pair<size_t, bool>{0, true});
  CHECK(index.findOrAdd({}) == std::pair<size_t, bool>{0, false});
}
