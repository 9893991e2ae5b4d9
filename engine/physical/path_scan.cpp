#include "engine/physical/path_scan.h"

#include "engine/physical/path_search.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> endVariables(const sparql::Term& subject, const sparql::Term& object) {
  std::vector<std::string> names;
  if (auto s = PathScan::variableOf(subject)) names.push_back(*s);
  auto o = PathScan::variableOf(object);
  if (o && (names.empty() || names[0] != *o)) names.push_back(*o);
  return names;
}

}  // namespace

std::optional<std::string> PathScan::variableOf(const sparql::Term& end) {
  if (end.kind == sparql::Term::Kind::Variable) return end.value;
  if (end.kind == sparql::Term::Kind::Blank) return "_:" + end.value;
  return std::nullopt;
}

PathScan::PathScan(sparql::Term subject, sparql::Path path, sparql::Term object, std::string text, double rows,
                   GraphMerge graph)
    : Operator(endVariables(subject, object), rows, rows), subject_(std::move(subject)), object_(std::move(object)),
      path_(std::move(path)), text_(std::move(text)), graph_(std::move(graph)) {}

void PathScan::openImpl(ExecutionContext& context) {
  auto constant = [&](const sparql::Term& end) -> std::optional<ValueId> {
    if (!end.isConstant()) return std::nullopt;
    return context.terms.idOf(end.value);
  };
  std::vector<std::pair<ValueId, ValueId>> pairs;
  PathSearch(path_, context.terms, graph_, context.run.limits).evaluate(constant(subject_), constant(object_), pairs);
  const auto subjectVariable = variableOf(subject_), objectVariable = variableOf(object_);
  const bool sameVariable = subjectVariable && objectVariable && *subjectVariable == *objectVariable;
  Table out(variables().size());
  for (const auto& [s, o] : pairs) {
    if (sameVariable && s != o) continue;
    if (subjectVariable) out.columns[0].push_back(s);
    if (objectVariable && !sameVariable) out.columns[subjectVariable ? 1 : 0].push_back(o);
    ++out.rows;
  }
  cursor_.reset(std::move(out));
}

}  // namespace gsparql::engine
