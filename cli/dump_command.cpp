#include <iostream>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

int runDump(const Arguments& a) {
  std::ios::sync_with_stdio(false);
  Database(a.required("--db")).dump(std::cout);
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace

const Command& dumpCommand() {
  static const Command command{
      {.name = "dump",
       .synopsis = "--db DIR",
       .summary = "write the dataset as N-Quads (N-Triples where it has no named graphs)",
       .options = {sharedOption("--db")}},
      runDump};
  return command;
}

}  // namespace gsparql::cli
