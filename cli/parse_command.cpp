// `gsparql parse`: prints the algebra of a query and the query graph of each
// of its basic graph patterns; no database needed.
#include <iostream>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/query.h"

namespace gsparql::cli {
namespace {

int runParse(const Arguments& a) {
  std::cout << describeParsedQuery(requestText(a, "QUERY"));
  return 0;
}

}  // namespace

const Command& parseCommand() {
  static const Command command{
      {.name = "parse",
       .synopsis = "(QUERY | -f FILE | -)",
       .summary = "print the algebra and query graphs of a SPARQL query (no database needed)",
       .options = {sharedOption("-f")},
       .notes = "A syntax error is reported with its line and column (exit status 1).\n",
       .maxOperands = 1},
      runParse};
  return command;
}

}  // namespace gsparql::cli
