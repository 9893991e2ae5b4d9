// `gsparql update`: runs one SPARQL 1.1 Update request and says what it did.
#include <cstdio>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {

int runUpdate(const Args& args) {
  Arguments a(args, {{"--db", "-f", "--timeout", "--memory-budget"}, {"--quiet", "--union-default-graph"}});
  const UpdateSummary summary = Database::update(a.required("--db"), requestText(a), {queryOptionsFrom(a)});
  if (!a.flag("--quiet")) std::fprintf(stderr, "%s\n", updateReport(summary).c_str());
  return 0;
}

}  // namespace gsparql::cli
