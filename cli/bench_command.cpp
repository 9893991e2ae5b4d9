// `gsparql bench`: runs every query of a folder several times and reports,
// per query, the rows and the min/median/max time with all rows decoded to
// terms, then a summary per template (the file name up to '_': L1, C3, ...).
// engine_median_ms is the part before decoding: parse, plan, execute and
// solution modifiers, up to the id table on the host; plan_median_ms the
// planning in it (the optimizer's walks included). max_q_error and the
// template's q-errors judge the planner's row estimates (EXPLAIN's q-error).
// With --cold every run opens the database afresh, so the GPU executor starts
// with nothing cached and the time includes copying adjacency to the GPU.
// With several backends (--backend cpu,auto,gpu) their runs interleave in
// one process and each gets its table and summary, after a line
// "== --backend NAME (interleaved ...)".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

struct Measurement {
  std::string query;
  size_t rows = 0;
  std::vector<double> qErrors;             // of every operator and join step of the warm-up run
  std::vector<double> milliseconds;        // sorted; the query and every row decoded
  std::vector<double> engineMilliseconds;  // sorted; parse to id table, before decoding
  std::vector<double> planMilliseconds;    // sorted; planning, walks included
  double median() const { return medianOf(milliseconds); }
  double engineMedian() const { return medianOf(engineMilliseconds); }
  double planMedian() const { return medianOf(planMilliseconds); }
  static double medianOf(const std::vector<double>& sorted) { return sorted[sorted.size() / 2]; }
};

struct Run {
  size_t rows = 0;
  double milliseconds = 0;
  double engineMilliseconds = 0;
  double planMilliseconds = 0;
  std::vector<double> qErrors;  // of every operator and join step
};

// One run: the query and every row (or triple) decoded, as a user of the results would.
Run timeOnce(const Database& db, const std::string& text, const QueryOptions& options) {
  auto start = std::chrono::steady_clock::now();
  QueryResult result = db.query(text, options);
  size_t rows = 0;
  if (result.isGraph()) {
    result.forEachTriple([&](std::string_view, std::string_view, std::string_view) { ++rows; });
  } else {
    result.forEachRow([&](std::span<const Term>) { ++rows; });
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const QueryTimings& t = result.timings();
  double engine = t.parseMilliseconds + t.planMilliseconds + t.executeMilliseconds;
  std::vector<double> qErrors;
  for (const RowEstimate& e : result.rowEstimates()) qErrors.push_back(e.qError);
  return {result.isBoolean() ? 1 : rows, ms, engine, t.planMilliseconds, std::move(qErrors)};
}

std::string templateOf(const std::string& query) { return query.substr(0, query.find('_')); }

double maxOf(const std::vector<double>& values) {
  return values.empty() ? 1 : *std::max_element(values.begin(), values.end());
}

struct BenchSetup {
  std::string dir;
  DatabaseOptions database;
  std::vector<QueryOptions> queries;  // one per backend measured
  int repeat = 5;
  bool cold = false;
};

// A query on each backend: a warm-up each, then `repeat` rounds in which
// each backend runs once, each round starting one backend later. With
// several backends, each timed run (but a cold one) follows an untimed one
// of its own backend, so that it finds the caches as that backend leaves them: in
// rounds of cpu, auto, gpu rotated by one, auto ran after the CPU
// executor's 16 threads in two of three rounds and the GPU in one, and its
// WatDiv C2 took 1.17x the GPU's time with the same plan and placement
// (benchmarks/results/h200-2026-11-28-planning-by-executor).
std::vector<Measurement> measure(const Database& db, const std::filesystem::path& file, const BenchSetup& setup) {
  const std::string text = readText(file);
  const size_t backends = setup.queries.size();
  std::vector<Measurement> m(backends, Measurement{file.stem().string(), 0, {}, {}, {}, {}});
  // Warm-up (caches, page faults, the GPU context); its plan's estimates are judged.
  for (size_t b = 0; b < backends; ++b) m[b].qErrors = timeOnce(db, text, setup.queries[b]).qErrors;
  for (int i = 0; i < setup.repeat; ++i) {
    for (size_t k = 0; k < backends; ++k) {
      const size_t b = (static_cast<size_t>(i) + k) % backends;
      std::optional<Database> fresh;
      if (setup.cold) fresh.emplace(setup.dir, setup.database);
      if (backends > 1 && !setup.cold) timeOnce(db, text, setup.queries[b]);
      Run run = timeOnce(fresh ? *fresh : db, text, setup.queries[b]);
      m[b].rows = run.rows;
      m[b].milliseconds.push_back(run.milliseconds);
      m[b].engineMilliseconds.push_back(run.engineMilliseconds);
      m[b].planMilliseconds.push_back(run.planMilliseconds);
    }
  }
  for (Measurement& one : m) {
    std::sort(one.milliseconds.begin(), one.milliseconds.end());
    std::sort(one.engineMilliseconds.begin(), one.engineMilliseconds.end());
    std::sort(one.planMilliseconds.begin(), one.planMilliseconds.end());
  }
  return m;
}

// --backend cpu,auto,gpu: each backend interleaved with the others in one
// process, whose machine state (caches, memory placement, clocks: up to
// 1.9x between processes on the GPU machine) they then share. The GPU's
// adjacency is shared too: auto finds it copied by the gpu runs.
std::vector<std::string> backendNames(const Arguments& a) {
  const std::string list = a.value("--backend").value_or("auto");
  std::vector<std::string> names;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find(',', start), list.size());
    names.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

std::vector<QueryOptions> perBackend(const Arguments& a, const std::vector<std::string>& names) {
  std::vector<QueryOptions> queries(names.size(), queryOptionsButBackend(a));
  for (size_t b = 0; b < names.size(); ++b) queries[b].backend = parseBackend(names[b]);
  return queries;
}

void printRow(const Measurement& m) {
  std::printf("%s,%s,%zu,%.3f,%.3f,%.3f,%.3f,%.2f,%.4f\n", m.query.c_str(), templateOf(m.query).c_str(), m.rows,
              m.milliseconds.front(), m.median(), m.milliseconds.back(), m.engineMedian(), maxOf(m.qErrors),
              m.planMedian());
}

constexpr const char* kHeader =
    "query,template,rows,min_ms,median_ms,max_ms,engine_median_ms,max_q_error,plan_median_ms\n";

// Per template: the queries' median times, and the q-errors of all their
// operators and join steps (how far the planner's estimates were off).
void printSummary(const std::vector<Measurement>& all) {
  struct Template {
    std::vector<double> medians, qErrors;
  };
  std::map<std::string, Template> byTemplate;
  for (const auto& m : all) {
    Template& t = byTemplate[templateOf(m.query)];
    t.medians.push_back(m.median());
    t.qErrors.insert(t.qErrors.end(), m.qErrors.begin(), m.qErrors.end());
  }
  std::printf("\ntemplate,queries,median_of_medians_ms,max_median_ms,median_q_error,max_q_error\n");
  for (auto& [name, t] : byTemplate) {
    std::sort(t.medians.begin(), t.medians.end());
    std::sort(t.qErrors.begin(), t.qErrors.end());
    const double medianQ = t.qErrors.empty() ? 1 : t.qErrors[t.qErrors.size() / 2];
    std::printf("%s,%zu,%.3f,%.3f,%.2f,%.2f\n", name.c_str(), t.medians.size(), t.medians[t.medians.size() / 2],
                t.medians.back(), medianQ, maxOf(t.qErrors));
  }
}

DatabaseOptions ablation(const std::string& name, DatabaseOptions options) {
  if (name == "plain-csr") {
    options.gpuPlainCsrLookups = true;
  } else if (name == "two-pass") {
    options.gpuTwoPassJoin = true;
  } else if (name == "naive-set-ops") {
    options.gpuNaiveSetOperations = true;
  } else if (name == "no-fusion") {
    options.gpuFuseLightSteps = false;
  } else if (name != "none") {
    throw UsageError("unknown --ablation '" + name + "' (none, plain-csr, two-pass, naive-set-ops or no-fusion)");
  }
  return options;
}

int runBench(const Arguments& a) {
  const std::vector<std::string> names = backendNames(a);
  BenchSetup setup{a.required("--db"), ablation(a.value("--ablation").value_or("none"), databaseOptionsFrom(a)),
                   perBackend(a, names), static_cast<int>(parseRepeat(a.value("--repeat").value_or("5"))),
                   a.flag("--cold")};
  Database db(setup.dir, setup.database);
  const size_t backends = setup.queries.size();
  std::vector<std::vector<Measurement>> all(backends);
  if (backends == 1) std::printf("%s", kHeader);  // one backend: each line as soon as measured
  for (const auto& file : queryFiles(a.required("--queries"))) {
    std::vector<Measurement> m = measure(db, file, setup);
    if (backends == 1) {
      printRow(m.front());
      std::fflush(stdout);
    }
    for (size_t b = 0; b < backends; ++b) all[b].push_back(std::move(m[b]));
  }
  if (backends == 1) {
    printSummary(all.front());
    return 0;
  }
  for (size_t b = 0; b < backends; ++b) {
    std::printf("%s== --backend %s (interleaved with --backend %s in one process)\n%s", b == 0 ? "" : "\n",
                names[b].c_str(), a.value("--backend")->c_str(), kHeader);
    for (const Measurement& m : all[b]) printRow(m);
    printSummary(all[b]);
  }
  return 0;
}

}  // namespace

const Command& benchCommand() {
  static const Command command{
      {.name = "bench",
       .synopsis = "--db DIR --queries FOLDER [options]",
       .summary = "time the .rq files of a folder: CSV of min/median/max ms per query",
       .options = {sharedOption("--db"),
                   {"--queries", "FOLDER", "the folder of .rq files to run"},
                   {"--repeat", "N", "timed runs per query, after a warm-up (default 5)"},
                   {"--backend", "LIST", "cpu, gpu, auto (default) or several, comma-separated: run interleaved"},
                   sharedOption("--semantics"),
                   sharedOption("--timeout"),
                   sharedOption("--memory-budget"),
                   sharedOption("--optimizer"),
                   sharedOption("--cost-model"),
                   sharedOption("--gpus"), sharedOption("--gpu-memory"), sharedOption("--gpu-peer-memory"),
                   sharedOption("--gpu-preload"),
                   sharedOption("--union-default-graph"), sharedOption("--no-geosparql-rewrite"),
                   sharedOption("--entailment"),
                   {"--cold", "", "open the database afresh for each run: nothing cached, GPU included"},
                   {"--ablation", "none|plain-csr|two-pass|naive-set-ops|no-fusion",
                    "switch one technique of the GPU executor off (default none)"}},
       .notes = std::string("Every row of every run is decoded, as a user of the results would. After the queries, a\n"
                            "summary per template (the file name up to '_') with the planner's q-errors. With\n"
                            "several backends, each gets its table after a line '== --backend NAME ...'.\n\n") +
                kOptimizerNotes},
      runBench};
  return command;
}

}  // namespace gsparql::cli
