// `gsparql update`: runs one SPARQL 1.1 Update request and says what it did.
#include <chrono>
#include <cstdio>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {

int runUpdate(const Args& args) {
  Arguments a(args, {{"--db", "-f", "--timeout", "--memory-budget"}, {"--quiet", "--union-default-graph", "--merge"}});
  const UpdateSummary summary = Database::update(a.required("--db"), requestText(a), {queryOptionsFrom(a)});
  if (!a.flag("--quiet")) std::fprintf(stderr, "%s\n", updateReport(summary).c_str());
  // --merge: the delta, however small, into a generation now (as a later large one would be).
  const auto start = std::chrono::steady_clock::now();
  if (a.flag("--merge") && Database::mergeDelta(a.required("--db")) && !a.flag("--quiet")) {
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::fprintf(stderr, "delta merged into a new generation, %.3f s\n", seconds.count());
  }
  return 0;
}

}  // namespace gsparql::cli
