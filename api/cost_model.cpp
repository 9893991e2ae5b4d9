#include "gsparql/cost_model.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "gsparql/error.h"

namespace gsparql {
namespace {

struct Constant {
  const char* name;
  double ExecutorCosts::*field;
  bool required;  // files written before copied_mb existed lack it: the default's value stays
};

constexpr std::array<Constant, 5> kConstants{{{"bgp", &ExecutorCosts::perBgp, true},
                                              {"step", &ExecutorCosts::perStep, true},
                                              {"candidate", &ExecutorCosts::perCandidate, true},
                                              {"row", &ExecutorCosts::perRow, true},
                                              {"copied_mb", &ExecutorCosts::perCopiedMegabyte, false}}};

// The constant a `name` such as "gpu.row" denotes in `model`, if any.
double* constantOf(CostModel& model, std::string_view name) {
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) return nullptr;
  const std::string_view executor = name.substr(0, dot), constant = name.substr(dot + 1);
  ExecutorCosts* costs = executor == "cpu" ? &model.cpu : executor == "gpu" ? &model.gpu : nullptr;
  for (const Constant& c : kConstants) {
    if (costs != nullptr && constant == c.name) return &(costs->*c.field);
  }
  return nullptr;
}

[[noreturn]] void fail(const std::filesystem::path& file, size_t line, const std::string& what) {
  throw Error(file.string() + ":" + std::to_string(line) + ": " + what +
              " (a cost model has lines `cpu.step 1.5`; `gsparql calibrate` writes one)");
}

std::optional<double> parseConstant(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

}  // namespace

CostModel defaultCostModel() {
  // Fitted by `gsparql calibrate` on the H100 machine (16 threads) over
  // WatDiv SF100's 191 queries (benchmarks/results/h100-2026-11-24-cost-model/).
  CostModel model;
  model.cpu = {.perBgp = 0.151, .perStep = 0.832, .perCandidate = 0.00363, .perRow = 0.0349};
  // The GPU's copies: calibrate on the same queries, 25 November
  // (benchmarks/results/h100-2026-11-25-copy-cost/).
  model.gpu = {.perBgp = 36.7, .perStep = 6.51, .perCandidate = 0, .perRow = 0.00463, .perCopiedMegabyte = 298};
  model.measuredOn = "defaults";
  return model;
}

std::filesystem::path cachedCostModelPath() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0') {
    return std::filesystem::path(cache) / "gsparql" / "cost-model";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : ".") / ".cache" / "gsparql" / "cost-model";
}

CostModel cachedOrDefaultCostModel() {
  const auto path = cachedCostModelPath();
  std::error_code ec;
  return std::filesystem::exists(path, ec) ? readCostModel(path) : defaultCostModel();
}

CostModel readCostModel(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(file.string() + ": cannot read the cost model");
  CostModel model = defaultCostModel();
  model.measuredOn = file.string();
  std::set<std::string> seen;
  std::string text;
  for (size_t line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    const size_t space = text.find(' ');
    const std::string name = text.substr(0, space);
    if (name == "measured-on") {
      if (space != std::string::npos) model.measuredOn = text.substr(space + 1) + " (" + file.string() + ")";
      continue;
    }
    double* constant = constantOf(model, name);
    if (constant == nullptr) fail(file, line, "unknown constant `" + name + "`");
    const auto value = space == std::string::npos ? std::nullopt : parseConstant(std::string_view(text).substr(space + 1));
    if (!value) fail(file, line, "`" + name + "` needs a non-negative number");
    *constant = *value;
    seen.insert(name);
  }
  if (in.bad()) throw Error(file.string() + ": cannot read the cost model");
  const auto required = std::count_if(kConstants.begin(), kConstants.end(), [](const Constant& c) { return c.required; });
  const auto seenRequired = std::count_if(seen.begin(), seen.end(), [](const std::string& name) {
    return !name.ends_with(".copied_mb");
  });
  if (seenRequired != 2 * required) {
    throw Error(file.string() + ": the cost model lacks constants (it needs cpu. and gpu. of bgp, step, candidate, row)");
  }
  return model;
}

void writeCostModel(const std::filesystem::path& file, const CostModel& model) {
  std::ostringstream text;
  text.precision(6);
  text << "# gsparql cost model: microseconds per BGP, step, candidate, row and megabyte copied to the device"
          " (gsparql calibrate)\n";
  text << "measured-on " << model.measuredOn << "\n";
  for (const auto& [executor, costs] : {std::pair("cpu", &model.cpu), std::pair("gpu", &model.gpu)}) {
    for (const Constant& c : kConstants) text << executor << "." << c.name << " " << costs->*c.field << "\n";
  }
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const auto temporary = std::filesystem::path(file.string() + ".tmp");
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text.str();
    out.close();
    if (!out) throw Error(temporary.string() + ": cannot write the cost model");
  }
  std::filesystem::rename(temporary, file);
}

}  // namespace gsparql
