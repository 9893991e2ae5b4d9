#pragma once
// Helpers shared by the tests: scratch folders, test data, running the CLI.
#include <filesystem>
#include <string>
#include <vector>

#include "gsparql/query.h"
#include "support/files.h"

namespace gsparql::test {

// How many of a randomized or stress test's `full` cases to run: all, or a
// fifth under AddressSanitizer, whose build runs each case (a load of a small
// database and its queries) 5-20 times slower; the Release run covers them all.
constexpr int scaledCases(int full) {
#if defined(__SANITIZE_ADDRESS__)
  return full / 5 > 0 ? full / 5 : 1;
#else
  return full;
#endif
}

// A fresh folder under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

std::filesystem::path dataFile(const std::string& relative);  // under tests/data, or $GSPARQL_TEST_DATA
std::vector<std::string> readLines(const std::filesystem::path& file);
void writeFile(const std::filesystem::path& file, const std::string& content);
// A branch with a small fan-out that a plan should take last: <c> has 50 <p>
// objects and 1,000 <q> subjects, of which 100 have an <r>. Of kBranchFanOutQuery
// (5,000 rows), taking the fewest rows each step binds ?a (50), then ?b
// (50,000), then ?z (5,000); the plans that make fewest rows over their steps
// bind ?b, ?z and <c> (100-1,000 rows a step), then ?a (5,000). N-Triples.
std::string branchFanOutTriples();
inline constexpr const char* kBranchFanOutQuery =
    "SELECT * { <http://e/c> <http://e/p> ?a . ?b <http://e/q> <http://e/c> . ?b <http://e/r> ?z }";
// Every triple of the database, one N-Triples line each, sorted bytewise.
std::vector<std::string> sortedDump(const std::filesystem::path& db);
// The names in a folder, sorted.
std::vector<std::string> directoryEntries(const std::filesystem::path& dir);

// "SELECT (COUNT(*) AS ?n) WHERE ..." of a "SELECT ... WHERE ..." query, or
// COUNT(DISTINCT ?v) of `distinctVariable` v.
std::string countingQuery(const std::string& select, const std::string& distinctVariable = "");
// GROUP BY ?v with COUNT(*) over the pattern of `select`; with a SAMPLE as
// well, which keeps the GroupBy of the rows (the reference).
std::string groupCountQuery(const std::string& select, const std::string& v, bool sample = false);
// A result's rows, each its cells joined by tabs (unbound: empty), in its order.
std::vector<std::string> resultLines(const QueryResult& result);
// The same, sorted.
std::vector<std::string> sortedLines(const QueryResult& result);
// The integer of a result of one row and one xsd:integer cell (a count).
uint64_t countOf(const QueryResult& result);

struct ProcessResult {
  int exitCode = -1;      // when it exited
  int signal = 0;         // when a signal ended it
  std::string output;     // stdout and stderr together
};
// Runs the gsparql CLI with `args`, extra environment entries ("K=V") and an
// optional file as standard input.
ProcessResult runCli(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                     const std::filesystem::path& stdinFile = {});
// The same with standard output and standard error apart.
struct SeparateOutputs {
  int exitCode = -1;
  std::string out, err;
};
SeparateOutputs runCliApart(const std::vector<std::string>& args, const std::filesystem::path& stdinFile = {});
// Runs `command` with sh: its exit status, and its standard output and
// standard error together.
ProcessResult shell(const std::string& command);
// `text` (a path, a command) quoted for sh.
std::string shellQuoted(const std::string& text);
// Starts the CLI without waiting; for kill tests.
int spawnCli(const std::vector<std::string>& args, const std::filesystem::path& outputFile);
ProcessResult waitFor(int pid, const std::filesystem::path& outputFile);

}  // namespace gsparql::test
