// `gsparql query`: runs one query and writes its result.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/pager.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

std::string queryText(const Arguments& a) {
  if (auto file = a.value("-f")) {
    std::ifstream in(*file, std::ios::binary);
    if (!in) throw UsageError("cannot read " + *file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  if (a.positional().size() != 1) throw UsageError("query needs exactly one QUERY argument, or -f FILE");
  if (a.positional()[0] == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    return text.str();
  }
  return a.positional()[0];
}

// Without --format: a table on a terminal, else TSV (N-Triples for a graph).
ResultFormat formatFrom(const Arguments& a, bool graph) {
  auto name = a.value("--format");
  if (!name) return stdoutIsTerminal() ? ResultFormat::Table : (graph ? ResultFormat::NTriples : ResultFormat::Tsv);
  auto format = resultFormatFromName(*name);
  if (!format) throw UsageError("unknown --format " + *name + " (table, tsv, csv, json, xml, nt or ttl)");
  return *format;
}

void printTimings(const QueryTimings& t, double outputMs) {
  std::fprintf(stderr, "time: parse %.3f ms, plan %.3f ms, execute %.3f ms, output %.3f ms\n",
               t.parseMilliseconds, t.planMilliseconds, t.executeMilliseconds, outputMs);
}

}  // namespace

int runQuery(const Args& args) {
  Arguments a(args, {{"--db", "-f", "--format", "--backend", "--semantics", "--timeout", "--memory-budget"}, {"--time", "--explain"}});
  Database db(a.required("--db"));
  QueryOptions options = queryOptionsFrom(a);
  options.stepTimes = a.flag("--explain");
  QueryResult result = db.query(queryText(a), options);
  const ResultFormat format = formatFrom(a, result.isGraph());
  auto start = std::chrono::steady_clock::now();
  if (format == ResultFormat::Table && stdoutIsTerminal()) {
    std::ostringstream text;
    result.write(text, format);
    showPaged(text.str());
  } else {
    std::ios::sync_with_stdio(false);
    result.write(std::cout, format);
    std::cout.flush();
  }
  double outputMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (a.flag("--explain")) std::fputs(result.explain().c_str(), stderr);
  if (a.flag("--time")) printTimings(result.timings(), outputMs);
  return std::cout ? 0 : 1;
}

}  // namespace gsparql::cli
