#include "benchmarks/optimizer/bgp_corpus.h"

#include <algorithm>
#include <random>

#include "benchmarks/optimizer/random_pattern.h"
#include "cli/query_options.h"

namespace gsparql::benchmarks {

std::set<std::string> corpusOptions() { return {"--queries", "--random", "--seed", "--anchor-every"}; }

double numberOption(const cli::Arguments& args, const std::string& name, double fallback) {
  const auto text = args.value(name);
  if (!text) return fallback;
  try {
    size_t used = 0;
    const double value = std::stod(*text, &used);
    if (used == text->size() && value >= 0) return value;
  } catch (const std::exception&) {
  }
  throw cli::UsageError(name + " wants a non-negative number, not '" + *text + "'");
}

std::vector<CorpusBgp> bgpCorpus(const cli::Arguments& args, const GraphStore& store) {
  std::vector<CorpusBgp> bgps;
  if (const auto folder = args.value("--queries")) {
    for (const auto& f : cli::queryFiles(*folder)) bgps.push_back({"queries", f.stem().string(), cli::readText(f)});
  }
  const int random = static_cast<int>(numberOption(args, "--random", 0));
  const int anchorEvery = std::max(1, static_cast<int>(numberOption(args, "--anchor-every", 2)));
  std::mt19937_64 generator(static_cast<uint64_t>(numberOption(args, "--seed", 1)));
  for (int i = 0; i < random; ++i) {
    PatternShape shape{.edges = 5 + i % 6, .anchored = i % anchorEvery == 0};
    std::string text = randomPattern(store, shape, generator);
    if (!text.empty()) bgps.push_back({"random", "r" + std::to_string(i) + "_e" + std::to_string(shape.edges), text});
  }
  return bgps;
}

}  // namespace gsparql::benchmarks
