#include "engine/planner/path_estimate.h"

#include "engine/physical/path_search.h"
#include "engine/value/term_codec.h"
#include "storage/graph_store.h"

namespace gsparql::engine {

std::string variableEnd(const sparql::Term& subject, const sparql::Term& object) {
  using Kind = sparql::Term::Kind;
  if (subject.kind == Kind::Variable && object.isConstant()) return subject.value;
  if (object.kind == Kind::Variable && subject.isConstant()) return object.value;
  return {};
}

std::optional<SearchedPath> searchPath(const GraphStore& store, const sparql::Term& subject, const sparql::Path& path,
                                       const sparql::Term& object, const GraphMerge& graph, size_t endTermsLimit,
                                       const QueryLimits& limits) {
  if (!subject.isConstant() && !object.isConstant()) return std::nullopt;
  TermCodec terms(store);
  auto constant = [&](const sparql::Term& end) -> std::optional<ValueId> {
    if (!end.isConstant()) return std::nullopt;
    return terms.idOf(end.value);
  };
  std::vector<std::pair<ValueId, ValueId>> pairs;
  PathSearch(path, terms, graph, limits).evaluate(constant(subject), constant(object), pairs);
  SearchedPath searched;
  searched.rows = static_cast<double>(pairs.size());
  if (variableEnd(subject, object).empty() || pairs.size() > endTermsLimit) return searched;
  const bool subjectVariable = !subject.isConstant();
  for (const auto& [s, o] : pairs) searched.endTerms.emplace_back(terms.term(subjectVariable ? s : o));
  return searched;
}

}  // namespace gsparql::engine
