#include "api/calibration.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "engine/physical/bgp_leaf.h"
#include "gsparql/error.h"

namespace gsparql {
namespace {

// The fastest of a warm-up and `repeat` runs; nullopt when the query fails or has no BGP.
std::optional<engine::CostSample> fastestRun(const std::string& query, Backend backend,
                                             const CalibrationOptions& options, const MeasureQuery& measure) {
  try {
    Measurement fastest = measure(query, backend);  // the warm-up: caches, the GPU's adjacency
    for (unsigned r = 0; r < options.repeat; ++r) {
      const Measurement m = measure(query, backend);
      if (r == 0 || m.milliseconds < fastest.milliseconds) fastest = m;
    }
    if (fastest.work.bgps == 0) return std::nullopt;
    // A time of 0 (below the clock's resolution) would weigh infinitely.
    return engine::CostSample{fastest.work, std::max(fastest.milliseconds * 1000, 1.0)};
  } catch (const Error&) {
    return std::nullopt;
  }
}

double medianError(const std::vector<engine::CostSample>& samples, const ExecutorCosts& costs) {
  std::vector<double> errors;
  for (const engine::CostSample& s : samples) errors.push_back(std::abs(s.work.cost(costs) / s.microseconds - 1));
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  return errors[errors.size() / 2];
}

std::string machineName(bool gpu) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::string(host) + ", " + std::to_string(std::thread::hardware_concurrency()) + " threads" +
         (gpu ? ", GPU measured" : ", no GPU (its constants kept)");
}

}  // namespace

void addWork(const engine::Operator& root, engine::PlanWork& work) {
  if (const auto* leaf = dynamic_cast<const engine::BgpLeaf*>(&root)) work.add(leaf->plan());
  for (const engine::Operator* child : root.children()) addWork(*child, work);
}

engine::PlanWork workOf(const engine::Operator& root) {
  engine::PlanWork work;
  addWork(root, work);
  return work;
}

Calibration calibrateWith(const std::vector<std::string>& queries, const CalibrationOptions& options,
                          const CostModel& previous, bool gpu, const MeasureQuery& measure) {
  std::vector<engine::CostSample> cpuSamples, gpuSamples;
  Calibration c;
  for (const std::string& query : queries) {
    const auto cpuRun = fastestRun(query, Backend::Cpu, options, measure);
    const auto gpuRun = gpu && cpuRun ? fastestRun(query, Backend::Gpu, options, measure) : std::nullopt;
    if (!cpuRun || (gpu && !gpuRun)) {
      ++c.skipped;
      continue;
    }
    cpuSamples.push_back(*cpuRun);
    if (gpuRun) gpuSamples.push_back(*gpuRun);
  }
  c.samples = cpuSamples.size();
  if (cpuSamples.empty()) throw Error("calibrate: none of the " + std::to_string(queries.size()) + " queries could be measured");
  c.model = previous;
  c.model.cpu = engine::fitCosts(cpuSamples);
  c.cpuMedianError = medianError(cpuSamples, c.model.cpu);
  if (gpu) {
    c.model.gpu = engine::fitCosts(gpuSamples);
    c.gpuMedianError = medianError(gpuSamples, c.model.gpu);
    c.gpuMeasured = true;
  }
  c.model.measuredOn = machineName(gpu);
  return c;
}

}  // namespace gsparql
