// `gsparql query`: runs one query and writes its result.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/pager.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

// The --format asked for, if any.
std::optional<ResultFormat> formatFrom(const Arguments& a) {
  auto name = a.value("--format");
  if (!name) return std::nullopt;
  auto format = resultFormatFromName(*name);
  if (!format) throw UsageError("unknown --format '" + *name + "' (table, tsv, csv, json, xml, nt, ttl, nq, trig, rdfxml or jsonld)");
  return format;
}

// A table for a person at a terminal: the whole result, through the pager.
void showTable(const Database& db, double openMs, const std::string& text, const QueryOptions& options, bool explain,
               bool time) {
  QueryResult result = db.query(text, options);
  auto start = std::chrono::steady_clock::now();
  std::ostringstream table;
  result.write(table, ResultFormat::Table);
  showPaged(table.str());
  const double outputMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (explain) std::fputs(result.explain().c_str(), stderr);
  const QueryTimings& t = result.timings();
  if (time) {
    std::fprintf(stderr, "time: open %.3f ms, parse %.3f ms, plan %.3f ms, execute %.3f ms, output %.3f ms\n", openMs,
                 t.parseMilliseconds, t.planMilliseconds, t.executeMilliseconds, outputMs);
  }
}

// Without --format: a table on a terminal, else TSV (N-Triples for a graph),
// written as the rows come.
int runQuery(const Arguments& a) {
  // The options first: a bad one is a misuse whether or not the database opens.
  QueryOptions options = queryOptionsFrom(a);
  options.stepTimes = a.flag("--explain");
  options.explain = options.stepTimes;
  const std::optional<ResultFormat> format = formatFrom(a);
  const auto start = std::chrono::steady_clock::now();
  Database db(a.required("--db"), databaseOptionsFrom(a));
  const double openMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (format.value_or(ResultFormat::Table) == ResultFormat::Table && stdoutIsTerminal()) {
    showTable(db, openMs, requestText(a, "QUERY"), options, a.flag("--explain"), a.flag("--time"));
    return 0;
  }
  std::ios::sync_with_stdio(false);
  const QuerySummary summary = db.queryTo(requestText(a, "QUERY"), std::cout, format, options);
  std::cout.flush();
  if (a.flag("--explain")) std::fputs(summary.explain.c_str(), stderr);
  const QueryTimings& t = summary.timings;
  if (a.flag("--time")) {
    std::fprintf(stderr, "time: open %.3f ms, parse %.3f ms, plan %.3f ms, execute and write %.3f ms", openMs,
                 t.parseMilliseconds, t.planMilliseconds, t.executeMilliseconds);
    if (summary.cells > 0) {
      std::fprintf(stderr, " (decode and write %.3f ms, %.1f ns a cell)", summary.writeMilliseconds,
                   summary.writeMilliseconds * 1e6 / static_cast<double>(summary.cells));
    }
    std::fputc('\n', stderr);
  }
  return std::cout ? 0 : 1;
}

}  // namespace

const Command& queryCommand() {
  static const Command command{
      {.name = "query",
       .synopsis = "--db DIR [options] (QUERY | -f FILE | -)",
       .summary = "run a SPARQL query and write its result",
       .options = {sharedOption("--db"),
                   sharedOption("-f"),
                   {"--format", "table|tsv|csv|json|xml|nt|ttl|nq|trig|rdfxml|jsonld",
                    "SELECT and ASK: table, tsv, csv, json, xml; CONSTRUCT, DESCRIBE: nt, ttl, nq, trig, rdfxml, jsonld"},
                   sharedOption("--backend"),
                   sharedOption("--semantics"),
                   sharedOption("--timeout"),
                   sharedOption("--memory-budget"),
                   sharedOption("--optimizer"),
                   sharedOption("--cost-model"),
                   sharedOption("--gpus"), sharedOption("--gpu-memory"), sharedOption("--gpu-peer-memory"),
                   sharedOption("--union-default-graph"), sharedOption("--no-geosparql-rewrite"),
                   sharedOption("--entailment"),
                   {"--time", "", "print the time of opening, parsing, planning and running on standard error"},
                   {"--explain", "", "print the plan, estimated and actual rows of each step on standard error"}},
       .notes = std::string("- in place of QUERY reads it from standard input. Without --format the result is a\n"
                            "table (through a pager) on a terminal, else TSV (N-Triples for CONSTRUCT and DESCRIBE),\n"
                            "written as its rows come. A query that runs past --timeout or outgrows --memory-budget\n"
                            "stops with an error (exit status 1).\n\n") +
                kOptimizerNotes,
       .maxOperands = 1},
      runQuery};
  return command;
}

}  // namespace gsparql::cli
