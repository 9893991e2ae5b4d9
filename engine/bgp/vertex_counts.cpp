#include "engine/bgp/vertex_counts.h"

#include <algorithm>

#include "engine/bgp/executor.h"

namespace gsparql::engine {

VertexCounts addCounts(std::vector<VertexCounts> parts) {
  VertexCounts all;
  for (const VertexCounts& part : parts) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end(), [](const VertexCount& a, const VertexCount& b) { return a.vertex < b.vertex; });
  VertexCounts added;
  for (const VertexCount& c : all) {
    if (!added.empty() && added.back().vertex == c.vertex) {
      added.back().rows = checkedAdd(added.back().rows, c.rows);
    } else {
      added.push_back(c);
    }
  }
  return added;
}

}  // namespace gsparql::engine
