#include "engine/planner/path_estimate.h"

#include "engine/physical/path_search.h"
#include "engine/value/term_codec.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

// The (subject, object) pairs of a path with at least one constant end.
std::vector<std::pair<ValueId, ValueId>> searchFromConstant(TermCodec& terms, const sparql::Term& subject,
                                                            const sparql::Path& path, const sparql::Term& object) {
  auto constant = [&](const sparql::Term& end) -> std::optional<ValueId> {
    if (!end.isConstant()) return std::nullopt;
    return terms.idOf(end.value);
  };
  std::vector<std::pair<ValueId, ValueId>> pairs;
  PathSearch(path, terms).evaluate(constant(subject), constant(object), pairs);
  return pairs;
}

}  // namespace

double estimatePathRows(const GraphStore& store, const sparql::Term& subject, const sparql::Path& path,
                        const sparql::Term& object) {
  if (!subject.isConstant() && !object.isConstant()) return static_cast<double>(store.catalog().vertexCount);
  TermCodec terms(store);
  return static_cast<double>(searchFromConstant(terms, subject, path, object).size());
}

std::optional<std::pair<std::string, std::vector<std::string>>> pathEndTerms(const GraphStore& store,
                                                                             const sparql::Term& subject,
                                                                             const sparql::Path& path,
                                                                             const sparql::Term& object, size_t limit) {
  using Kind = sparql::Term::Kind;
  const bool subjectVariable = subject.kind == Kind::Variable && object.isConstant();
  const bool objectVariable = object.kind == Kind::Variable && subject.isConstant();
  if (!subjectVariable && !objectVariable) return std::nullopt;
  TermCodec terms(store);
  const auto pairs = searchFromConstant(terms, subject, path, object);
  if (pairs.empty() || pairs.size() > limit) return std::nullopt;
  std::vector<std::string> values;
  for (const auto& [s, o] : pairs) values.emplace_back(terms.term(subjectVariable ? s : o));
  return std::make_pair(subjectVariable ? subject.value : object.value, std::move(values));
}

}  // namespace gsparql::engine
