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

}  // namespace

int runCalibrate(const Args& args) {
  Arguments a(args, {{"--db", "--queries", "--repeat", "--timeout", "--gpu-memory", "--cost-model", "--out"}, {}});
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

}  // namespace gsparql::cli
