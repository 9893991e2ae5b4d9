// gsparql-mpi with 2 and 4 ranks over loopback (mpirun --oversubscribe: more
// ranks than cores) gives each query the rows one process gives, on WatDiv
// SF1's 180 queries and on LUBM(1)'s (LUBM's 14 with and without reasoning
// as paths, and Wukong's L1-L7), and runs their BGPs partitioned.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "gsparql/database.h"
#include "benchmarks/lubm/lubm_generator.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Each query's header line and its rows, sorted: the result of a run.
using Results = std::map<std::string, std::vector<std::string>>;

Results parseResults(const std::string& text) {
  Results results;
  std::vector<std::string>* current = nullptr;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("== ")) {
      current = &results[line.substr(3)];
    } else if (current != nullptr) {
      current->push_back(line);
    }
  }
  for (auto& [query, rows] : results) std::sort(rows.begin() + (rows.empty() ? 0 : 1), rows.end());
  return results;
}

struct Run {
  Results results;
  std::string errors;
};

Run runQueries(const std::filesystem::path& db, const std::vector<std::string>& files, int ranks,
               const std::filesystem::path& scratch) {
  std::string command;
  if (ranks == 0) {
    command = shellQuoted(GSPARQL_MPI_QUERY) + " --local";
  } else {
    // Loopback TCP only: no shared-memory transport, as between hosts. As
    // root (CI) mpirun wants to be told; under ASan, Open MPI's own
    // allocations that it never frees are not this test's to report.
    command = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" " +
              shellQuoted(GSPARQL_MPIEXEC) +
              " --oversubscribe -np " + std::to_string(ranks) + " --mca btl self,tcp --mca btl_tcp_if_include lo " +
              shellQuoted(GSPARQL_MPI_QUERY);
  }
  command += " --db " + shellQuoted(db.string());
  for (const std::string& f : files) command += " " + shellQuoted(f);
  const std::filesystem::path out = scratch / ("out-" + std::to_string(ranks) + ".txt");
  const ProcessResult r = shell(command + " > " + shellQuoted(out.string()));
  CAPTURE(r.output);
  REQUIRE(r.exitCode == 0);
  return {parseResults(readText(out)), r.output};
}

std::vector<std::string> rqFiles(const std::vector<std::filesystem::path>& folders) {
  std::vector<std::string> files;
  for (const auto& folder : folders) {
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
      if (e.path().extension() == ".rq") files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void checkRanks(const std::filesystem::path& db, const std::vector<std::string>& files, const TempDir& scratch) {
  const Run one = runQueries(db, files, 0, scratch.path());
  REQUIRE(one.results.size() == files.size());
  size_t rows = 0;
  for (const auto& [query, lines] : one.results) rows += lines.size();
  CHECK(rows > files.size() * 2);  // not a run of empty results
  for (int ranks : {2, 4}) {
    CAPTURE(ranks);
    const Run partitioned = runQueries(db, files, ranks, scratch.path());
    for (const auto& [query, lines] : one.results) {
      CAPTURE(query);
      CHECK(partitioned.results.at(query) == lines);
    }
    CHECK(partitioned.errors.find("gsparql-mpi: " + std::to_string(files.size()) + " queries") != std::string::npos);
    CHECK(partitioned.errors.find(" 0 with a BGP partitioned") == std::string::npos);
  }
}

}  // namespace

TEST_CASE("WatDiv SF1's queries over 2 and 4 MPI ranks give one process's rows") {
  TempDir dir;
  Database::load(dir / "db", {dataFile("watdiv/sf1.nt.zst")});
  checkRanks(dir / "db", rqFiles({dataFile("watdiv/sf1/queries")}), dir);
}

TEST_CASE("LUBM(1)'s queries over 2 and 4 MPI ranks give one process's rows") {
  TempDir dir;
  std::string data;
  lubm::GeneratorConfig config;
  lubm::generateUniversity(config, 0, data);
  writeFile(dir / "lubm1.nt", data);
  Database::load(dir / "db", {(dir / "lubm1.nt").string(), std::string(GSPARQL_LUBM_DIR) + "/univ-bench-schema.ttl"});
  checkRanks(dir / "db",
             rqFiles({std::string(GSPARQL_LUBM_DIR) + "/queries", std::string(GSPARQL_LUBM_DIR) + "/wukong"}), dir);
}

TEST_CASE("gsparql-mpi refuses a missing database, query file or operand, and a bad query, with the reason") {
  TempDir dir;
  Database::load(dir / "db", {dataFile("watdiv/sf1.nt.zst")});
  writeFile(dir / "bad.rq", "SELECT * WHERE { ?s ?p }");
  const std::string tool = shellQuoted(GSPARQL_MPI_QUERY);
  const std::string db = shellQuoted((dir / "db").string());
  const struct {
    std::string arguments, says;
  } cases[] = {
      {"--local", "usage: gsparql-mpi"},
      {"--local --db " + db, "usage: gsparql-mpi"},
      {"--local --frobnicate --db " + db + " x.rq", "unknown option --frobnicate"},
      {"--local --db " + db + " " + shellQuoted((dir / "missing.rq").string()), "cannot read"},
      {"--local --db " + shellQuoted((dir / "nothing").string()) + " " + shellQuoted((dir / "bad.rq").string()), "gsparql-mpi: "},
      {"--local --db " + db + " " + shellQuoted((dir / "bad.rq").string()), "gsparql-mpi: "},
  };
  for (const auto& c : cases) {
    CAPTURE(c.arguments);
    const ProcessResult r = shell(tool + " " + c.arguments);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find(c.says) != std::string::npos);
    CHECK(r.signal == 0);
  }
}
