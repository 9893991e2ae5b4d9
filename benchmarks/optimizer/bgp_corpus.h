#pragma once
// The BGPs the optimizer's benchmarks measure, and the options that choose
// them: the .rq files of --queries FOLDER, and --random N patterns of 5-10
// edges drawn from the data (random_pattern.h) from --seed S (1), every
// --anchor-every K-th (2) anchored at a constant.
#include <set>
#include <string>
#include <vector>

#include "cli/arguments.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::benchmarks {

struct CorpusBgp {
  std::string set;  // "queries" or "random"
  std::string name, text;
};

// The options above, to add to a tool's own.
std::set<std::string> corpusOptions();
std::vector<CorpusBgp> bgpCorpus(const cli::Arguments& args, const GraphStore& store);

// A number option's value, or `fallback` where it is absent; UsageError where it is no number.
double numberOption(const cli::Arguments& args, const std::string& name, double fallback);

}  // namespace gsparql::benchmarks
