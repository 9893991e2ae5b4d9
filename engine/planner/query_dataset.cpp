#include "engine/planner/query_dataset.h"

#include <algorithm>

#include "gsparql/error.h"
#include "storage/named_graphs.h"

namespace gsparql::engine {

QueryDataset resolveDataset(const std::vector<std::string>& fromGraphs,
                            const std::vector<std::string>& fromNamedGraphs, const NamedGraphs& graphs,
                            bool unionDefaultGraph) {
  QueryDataset dataset;
  if (fromGraphs.empty() && fromNamedGraphs.empty()) {
    if (unionDefaultGraph) dataset.defaultGraph = graphs.unionOfNamed();
    dataset.namedGraphs = graphs.named();
    return dataset;
  }
  std::vector<std::string> defaults = fromGraphs;
  std::sort(defaults.begin(), defaults.end());
  defaults.erase(std::unique(defaults.begin(), defaults.end()), defaults.end());
  if (defaults.size() > 1) {
    throw QueryError("a default graph merged from several graphs (more than one FROM) is not supported yet");
  }
  dataset.defaultGraph = defaults.empty() ? NamedGraphs::kNoGraph : graphs.find(defaults[0]).value_or(NamedGraphs::kNoGraph);
  for (const std::string& name : fromNamedGraphs) {
    auto graph = graphs.find(name);
    if (graph && std::find(dataset.namedGraphs.begin(), dataset.namedGraphs.end(), *graph) == dataset.namedGraphs.end()) {
      dataset.namedGraphs.push_back(*graph);
    }
  }
  return dataset;
}

}  // namespace gsparql::engine
