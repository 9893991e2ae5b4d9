// libFuzzer target for the cost-model file (readCostModel): any bytes are read
// as a file; it must either throw gsparql::Error or give a model whose
// constants are finite and non-negative, which writeCostModel writes and
// readCostModel reads back alike. Build: see engine/CMakeLists.txt (GSPARQL_FUZZ).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gsparql/cost_model.h"
#include "gsparql/error.h"

namespace {

const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "cost-model-fuzz.XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    return std::filesystem::path(pattern);
  }();
  return dir;
}

bool sane(const gsparql::ExecutorCosts& c) {
  for (double v : {c.perBgp, c.perStep, c.perCandidate, c.perRow, c.perCopiedMegabyte}) {
    if (!std::isfinite(v) || v < 0) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto input = scratch() / "input";
  std::ofstream(input, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), size);
  gsparql::CostModel model;
  try {
    model = gsparql::readCostModel(input);
  } catch (const gsparql::Error&) {
    return 0;
  }
  if (!sane(model.cpu) || !sane(model.gpu)) std::abort();
  // Written and read back: the same constants (to the six digits written).
  gsparql::writeCostModel(scratch() / "written", model);
  const gsparql::CostModel again = gsparql::readCostModel(scratch() / "written");
  const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-5 * std::max({1.0, a, b}); };
  if (!near(again.cpu.perRow, model.cpu.perRow) || !near(again.gpu.perBgp, model.gpu.perBgp)) std::abort();
  return 0;
}
