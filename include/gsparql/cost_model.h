#pragma once
// The constants of the optimizer's cost model (docs/engine.md, "The
// optimizer"): what a BGP's work costs on each executor, in microseconds.
// `gsparql calibrate` measures them on the machine and caches them; a
// database opened without a model reads the cached one, or the defaults.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>

#include "gsparql/export.h"

namespace gsparql {

struct ExecutorCosts {
  double perBgp = 0;        // a BGP's fixed cost (on the GPU: launches, synchronisations, copying back)
  double perStep = 0;       // each join step
  double perCandidate = 0;  // each candidate a step's set operations examine
  double perRow = 0;        // each row a step makes
  // Each megabyte of adjacency copied to the executor's device before it
  // runs a BGP (the GPU's cache misses; 0 on the CPU). Measured by calibrate
  // as a query's first run against its later ones; optional in files.
  double perCopiedMegabyte = 0;
  friend bool operator==(const ExecutorCosts&, const ExecutorCosts&) = default;
};

struct CostModel {
  ExecutorCosts cpu;
  ExecutorCosts gpu;
  std::string measuredOn;  // the machine, as calibrate saw it; "defaults" when not measured
  friend bool operator==(const CostModel&, const CostModel&) = default;
};

struct CalibrationOptions {
  unsigned repeat = 3;  // runs per query and executor after a warm-up; the fastest counts
  std::chrono::milliseconds timeout{10000};  // per run; a query that takes longer is left out
};

// What Database::calibrate measured and fitted.
struct Calibration {
  CostModel model;  // the GPU's constants are the previous ones where no GPU was measured
  size_t samples = 0;  // queries measured (with at least one BGP)
  size_t skipped = 0;  // queries that failed, timed out or had no BGP
  bool gpuMeasured = false;
  // How far the fitted model is off the measured times: the median over
  // the queries of |predicted / measured - 1|.
  double cpuMedianError = 0, gpuMedianError = 0;
};

// Constants measured on the H100 machine (docs/engine.md says when), for
// machines that were never calibrated.
GSPARQL_API CostModel defaultCostModel();

// Where calibrate caches the model: $XDG_CACHE_HOME/gsparql/cost-model, or
// ~/.cache/gsparql/cost-model.
GSPARQL_API std::filesystem::path cachedCostModelPath();

// The cached model where one is, else the defaults. A cached file that
// cannot be read is an Error (naming the file and line), never ignored.
GSPARQL_API CostModel cachedOrDefaultCostModel();

// Lines of `name value` ("cpu.step 1.5"), `#` comments; throws Error with
// the file and line for anything else, a missing constant or a negative one.
GSPARQL_API CostModel readCostModel(const std::filesystem::path& file);
// Atomic: written beside and renamed.
GSPARQL_API void writeCostModel(const std::filesystem::path& file, const CostModel& model);

}  // namespace gsparql
