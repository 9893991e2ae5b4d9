#include "api/calibration.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "engine/physical/bgp_leaf.h"
#include "gsparql/error.h"

namespace gsparql {
namespace {

// A query's runs on one executor: the fastest, and what the first (the
// warm-up, which copies what the executor's device lacks) took beyond it.
struct Runs {
  engine::CostSample fastest;
  uint64_t copiedBytes = 0;
  double copyMicroseconds = 0;
};

// The fastest of a warm-up and `repeat` runs; nullopt when the query fails or has no BGP.
std::optional<Runs> measureRuns(const std::string& query, Backend backend, const CalibrationOptions& options,
                                const MeasureQuery& measure) {
  try {
    const Measurement first = measure(query, backend);
    Measurement fastest = first;
    for (unsigned r = 0; r < options.repeat; ++r) {
      const Measurement m = measure(query, backend);
      if (r == 0 || m.milliseconds < fastest.milliseconds) fastest = m;
    }
    if (fastest.work.bgps == 0) return std::nullopt;
    // A time of 0 (below the clock's resolution) would weigh infinitely.
    return Runs{{fastest.work, std::max(fastest.milliseconds * 1000, 1.0)},
                first.copiedBytes,
                std::max(0.0, (first.milliseconds - fastest.milliseconds) * 1000)};
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Microseconds per megabyte copied, over the queries whose warm-up copied
// something; nullopt where none did.
std::optional<double> copyCost(const std::vector<Runs>& runs) {
  double bytes = 0, microseconds = 0;
  for (const Runs& r : runs) {
    bytes += static_cast<double>(r.copiedBytes);
    if (r.copiedBytes > 0) microseconds += r.copyMicroseconds;
  }
  if (bytes == 0) return std::nullopt;
  return microseconds / bytes * 1e6;
}

std::vector<engine::CostSample> fastestOf(const std::vector<Runs>& runs) {
  std::vector<engine::CostSample> samples;
  for (const Runs& r : runs) samples.push_back(r.fastest);
  return samples;
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

uint64_t copiedBytesOf(const engine::Operator& root) {
  uint64_t bytes = 0;
  if (const auto* leaf = dynamic_cast<const engine::BgpLeaf*>(&root)) bytes += leaf->executionProfile().copiedBytes;
  for (const engine::Operator* child : root.children()) bytes += copiedBytesOf(*child);
  return bytes;
}

Calibration calibrateWith(const std::vector<std::string>& queries, const CalibrationOptions& options,
                          const CostModel& previous, bool gpu, const MeasureQuery& measure) {
  std::vector<Runs> cpuRuns, gpuRuns;
  Calibration c;
  for (const std::string& query : queries) {
    const auto cpuRun = measureRuns(query, Backend::Cpu, options, measure);
    const auto gpuRun = gpu && cpuRun ? measureRuns(query, Backend::Gpu, options, measure) : std::nullopt;
    if (!cpuRun || (gpu && !gpuRun)) {
      ++c.skipped;
      continue;
    }
    cpuRuns.push_back(*cpuRun);
    if (gpuRun) gpuRuns.push_back(*gpuRun);
  }
  c.samples = cpuRuns.size();
  if (cpuRuns.empty()) throw Error("calibrate: none of the " + std::to_string(queries.size()) + " queries could be measured");
  c.model = previous;
  const std::vector<engine::CostSample> cpuSamples = fastestOf(cpuRuns);
  c.model.cpu = engine::fitCosts(cpuSamples);
  c.cpuMedianError = medianError(cpuSamples, c.model.cpu);
  if (gpu) {
    const std::vector<engine::CostSample> gpuSamples = fastestOf(gpuRuns);
    c.model.gpu = engine::fitCosts(gpuSamples);
    // Where nothing was copied (the device held it all already), the previous price stays.
    c.model.gpu.perCopiedMegabyte = copyCost(gpuRuns).value_or(previous.gpu.perCopiedMegabyte);
    c.gpuMedianError = medianError(gpuSamples, c.model.gpu);
    c.gpuMeasured = true;
  }
  c.model.measuredOn = machineName(gpu);
  return c;
}

}  // namespace gsparql
