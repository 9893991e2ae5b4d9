#include "engine/planner/query_dataset.h"

#include <algorithm>

#include "gsparql/error.h"
#include "storage/named_graphs.h"

namespace gsparql::engine {
namespace {

// The graphs of `names` that the store holds, each once, in the order named.
std::vector<uint32_t> heldGraphs(const std::vector<std::string>& names, const NamedGraphs& graphs) {
  std::vector<uint32_t> held;
  for (const std::string& name : names) {
    auto graph = graphs.find(name);
    if (graph && std::find(held.begin(), held.end(), *graph) == held.end()) held.push_back(*graph);
  }
  return held;
}

}  // namespace

QueryDataset resolveDataset(const std::vector<std::string>& fromGraphs,
                            const std::vector<std::string>& fromNamedGraphs, const NamedGraphs& graphs,
                            bool unionDefaultGraph) {
  QueryDataset dataset;
  if (fromGraphs.empty() && fromNamedGraphs.empty()) {
    if (unionDefaultGraph) dataset.defaultGraph = {graphs.unionOfNamed()};
    if (dataset.defaultGraph[0] == NamedGraphs::kNoGraph) dataset.defaultGraph.clear();
    dataset.namedGraphs = graphs.named();
    return dataset;
  }
  dataset.defaultGraph = heldGraphs(fromGraphs, graphs);
  dataset.namedGraphs = heldGraphs(fromNamedGraphs, graphs);
  return dataset;
}

}  // namespace gsparql::engine
