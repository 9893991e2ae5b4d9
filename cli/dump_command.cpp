#include <iostream>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

int runDump(const Arguments& a) {
  std::ios::sync_with_stdio(false);
  ResultFormat format = ResultFormat::NQuads;
  if (auto name = a.value("--format")) {
    auto named = resultFormatFromName(*name);
    if (!named || !isGraphFormat(*named)) {
      throw UsageError("unknown --format '" + *name + "' (nt, ttl, nq, trig, rdfxml or jsonld)");
    }
    format = *named;
  }
  Database(a.required("--db")).dump(std::cout, format);
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace

const Command& dumpCommand() {
  static const Command command{
      {.name = "dump",
       .synopsis = "--db DIR [--format nt|ttl|nq|trig|rdfxml|jsonld]",
       .summary = "write the dataset as N-Quads, or in another RDF syntax (--format)",
       .options = {sharedOption("--db"),
                   {"--format", "nt|ttl|nq|trig|rdfxml|jsonld",
                    "the syntax (default nq); nt, ttl and rdfxml only for a dataset without named graphs"}}},
      runDump};
  return command;
}

}  // namespace gsparql::cli
