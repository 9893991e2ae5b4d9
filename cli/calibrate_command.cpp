// gsparql calibrate: measures the optimizer's cost model on this machine
// (Database::calibrate) and caches it where every later command finds it.
#include <cstdio>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

void printCosts(const char* executor, const ExecutorCosts& c, double medianError) {
  std::printf("%s: %.3g us per BGP, %.3g per step, %.3g per candidate, %.3g per row (median error %.0f%%)", executor,
              c.perBgp, c.perStep, c.perCandidate, c.perRow, medianError * 100);
  if (c.perCopiedMegabyte > 0) std::printf("; %.3g per megabyte copied to the device", c.perCopiedMegabyte);
  std::printf("\n");
}

int runCalibrate(const Arguments& a) {
  CalibrationOptions options;
  if (auto r = a.value("--repeat")) options.repeat = parseRepeat(*r);
  if (auto t = a.value("--timeout")) options.timeout = options::parseTimeout(*t);
  std::vector<std::string> queries;
  for (const auto& file : queryFiles(a.required("--queries"))) queries.push_back(readText(file));
  const Database db(a.required("--db"), databaseOptionsFrom(a));
  const Calibration c = db.calibrate(queries, options);
  const std::filesystem::path out = a.value("--out").value_or(cachedCostModelPath().string());
  writeCostModel(out, c.model);
  std::printf("measured %zu queries (%zu left out) on %s\n", c.samples, c.skipped, c.model.measuredOn.c_str());
  printCosts("cpu", c.model.cpu, c.cpuMedianError);
  if (c.gpuMeasured) printCosts("gpu", c.model.gpu, c.gpuMedianError);
  std::printf("written to %s\n", out.string().c_str());
  return 0;
}

}  // namespace

const Command& calibrateCommand() {
  static const Command command{
      {.name = "calibrate",
       .synopsis = "--db DIR --queries FOLDER [options]",
       .summary = "fit the optimizer's cost model to this machine and cache it",
       .options = {sharedOption("--db"),
                   {"--queries", "FOLDER", "the folder of .rq files to measure"},
                   {"--repeat", "N", "runs per query and executor after a warm-up, the fastest kept (default 3)"},
                   {"--timeout", "SECONDS", "a run's time limit; a query that takes longer is left out (default 10)"},
                   sharedOption("--gpus"), sharedOption("--gpu-memory"),
                   {"--cost-model", "FILE", "the model to plan with while measuring (default: the cached one)"},
                   {"--out", "FILE", "where to write the model (default: ~/.cache/gsparql/cost-model)"}},
       .notes = "It measures what BGPs cost on each executor here (the GPU's where one is) by running the\n"
                "queries, fits the cost model's constants to the times and writes the model where every\n"
                "later command finds it ($XDG_CACHE_HOME/gsparql/cost-model when that is set).\n"},
      runCalibrate};
  return command;
}

}  // namespace gsparql::cli
