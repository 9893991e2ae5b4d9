#include "engine/planner/path_estimate.h"

#include <optional>
#include <utility>
#include <vector>

#include "engine/physical/path_search.h"
#include "engine/value/term_codec.h"
#include "storage/graph_store.h"

namespace gsparql::engine {

double estimatePathRows(const GraphStore& store, const sparql::Term& subject, const sparql::Path& path,
                        const sparql::Term& object) {
  if (!subject.isConstant() && !object.isConstant()) return static_cast<double>(store.catalog().vertexCount);
  TermCodec terms(store);
  auto constant = [&](const sparql::Term& end) -> std::optional<ValueId> {
    if (!end.isConstant()) return std::nullopt;
    return terms.idOf(end.value);
  };
  std::vector<std::pair<ValueId, ValueId>> pairs;
  PathSearch(path, terms).evaluate(constant(subject), constant(object), pairs);
  return static_cast<double>(pairs.size());
}

}  // namespace gsparql::engine
