#include "server_fixture.h"

#include <algorithm>
#include <sstream>

#include "support/test_support.h"

namespace gsparql::test {

const std::filesystem::path& sf1Dir() {
  static TempDir dir;
  static const bool loaded = [] {
    Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
    return true;
  }();
  (void)loaded;
  return dir.path();
}

const Database& sf1() {
  static Database db(sf1Dir());
  return db;
}

std::string watdivQuery(const std::string& name) {
  return readText(dataFile("watdiv/sf1/queries/" + name + ".rq"));
}

const std::vector<std::string>& watdivNames() {
  static const std::vector<std::string> names{"C3_01", "F3_07", "F4_11", "F5_02", "L1_02", "L2_02",
                                              "L3_10", "L4_01", "L5_02", "S1_08", "S2_08", "S6_02"};
  return names;
}

std::vector<std::string> sortedTsvRows(const std::string& tsv) {
  std::vector<std::string> rows;
  std::istringstream in(tsv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) rows.push_back(line);
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<std::string> sortedRowsOf(const QueryResult& result) {
  std::ostringstream tsv;
  result.write(tsv, ResultFormat::Tsv);
  return sortedTsvRows(tsv.str());
}

}  // namespace gsparql::test
