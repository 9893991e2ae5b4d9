#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "gsparql/database.h"

namespace gsparql::cli {

int runDump(const Args& args) {
  Arguments a(args, {{"--db"}, {}});
  std::ios::sync_with_stdio(false);
  Database(a.required("--db")).dump(std::cout);
  std::cout.flush();
  return std::cout ? 0 : 1;
}

}  // namespace gsparql::cli
