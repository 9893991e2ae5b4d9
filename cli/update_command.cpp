// `gsparql update`: runs one SPARQL 1.1 Update request, or merges the
// delta, and says what it did.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

// The delta, however small, into a generation now (as a later large one
// would be). Opening the database first reports a missing one as such.
std::string mergeReport(const std::string& dir) {
  const uint32_t deltaFiles = Database(dir).statistics().deltaFiles;
  const auto start = std::chrono::steady_clock::now();
  if (deltaFiles == 0 || !Database::mergeDelta(dir)) return "no delta to merge";
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  char text[100];
  std::snprintf(text, sizeof text, "merged the delta (%u file%s) into a new generation, %.3f s", deltaFiles,
                deltaFiles == 1 ? "" : "s", seconds.count());
  return text;
}

int runUpdate(const Arguments& a) {
  const std::string dir = a.required("--db");
  const bool merge = a.flag("--merge");
  // --merge alone needs no request.
  const bool request = !merge || !a.positional().empty() || a.value("-f").has_value();
  const bool quiet = a.flag("--quiet");
  if (request) {
    const UpdateSummary summary = Database::update(dir, requestText(a, "UPDATE"), {queryOptionsFrom(a)});
    if (!quiet) std::fprintf(stderr, "%s\n", updateReport(summary).c_str());
  }
  if (merge) {
    const std::string report = mergeReport(dir);
    if (!quiet) std::fprintf(stderr, "%s\n", report.c_str());
  }
  return 0;
}

}  // namespace

const Command& updateCommand() {
  static const Command command{
      {.name = "update",
       .synopsis = "--db DIR [options] (UPDATE | -f FILE | - | --merge)",
       .summary = "run a SPARQL 1.1 Update request, or merge the delta",
       .options = {{"--db", "DIR", "the database directory (created if needed)"},
                   sharedOption("-f"),
                   sharedOption("--timeout"),
                   sharedOption("--memory-budget"),
                   {"--union-default-graph", "", "WHERE patterns without USING read the union of the named graphs"},
                   {"--merge", "", "merge the delta into a new generation now (after the UPDATE, if any)"},
                   {"--quiet", "", "no report on standard error"}},
       .notes = "UPDATE: INSERT DATA, DELETE WHERE, DELETE/INSERT ... WHERE, LOAD <file:///path>, CLEAR, ...;\n"
                "- reads it from standard input. It is on disk, whole, when the command returns, and\n"
                "nothing of it is applied if it fails. Small updates are kept as a delta beside the\n"
                "database, merged into it once large; --merge merges it now.\n",
       .maxOperands = 1},
      runUpdate};
  return command;
}

}  // namespace gsparql::cli
