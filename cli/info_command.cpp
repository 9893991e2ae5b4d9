#include <cstdio>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

int runInfo(const Arguments& a) {
  Database db(a.required("--db"));
  if (a.flag("--verify")) db.verify();
  DatabaseStatistics stats = db.statistics();
  std::printf("generation  %llu\ntriples     %llu\nterms       %llu\npredicates  %zu\n",
              static_cast<unsigned long long>(stats.generation), static_cast<unsigned long long>(stats.triples),
              static_cast<unsigned long long>(stats.terms), stats.predicates.size());
  if (stats.deltaFiles > 0) std::printf("delta       %u files (updates not yet merged)\n", stats.deltaFiles);
  if (stats.namedGraphs > 0) std::printf("graphs      %llu named\n", static_cast<unsigned long long>(stats.namedGraphs));
  if (a.flag("--verify")) std::printf("checksums   ok\n");
  std::printf("\n%12s %10s %10s %8s %8s  %s\n", "triples", "subjects", "objects", "max-out", "max-in",
              "predicate");
  for (const auto& [name, p, graph] : stats.predicates) {
    std::printf("%12llu %10u %10u %8u %8u  %s%s%s\n", static_cast<unsigned long long>(p.triples),
                p.distinctSubjects, p.distinctObjects, p.maxOutDegree, p.maxInDegree, name.c_str(),
                graph.empty() ? "" : " in graph ", graph.c_str());
  }
  return 0;
}

}  // namespace

const Command& infoCommand() {
  static const Command command{
      {.name = "info",
       .synopsis = "--db DIR [--verify]",
       .summary = "print a database's statistics: triples, terms, predicates, graphs",
       .options = {sharedOption("--db"), {"--verify", "", "also recompute every checksum (exit 1 on damage)"}}},
      runInfo};
  return command;
}

}  // namespace gsparql::cli
