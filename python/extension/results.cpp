#include "python/extension/results.h"

#include <utility>

namespace gsparql::python {
namespace {

py::tuple solutions(const CollectedResult& result) {
  py::list variables;
  for (const std::string& variable : result.variables) variables.append(variable);
  py::list rows;
  for (const auto& row : result.rows) {
    py::tuple cells(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
      cells[i] = row[i] ? py::object(py::str(*row[i])) : py::object(py::none());
    }
    rows.append(std::move(cells));
  }
  return py::make_tuple("solutions", std::move(variables), std::move(rows));
}

py::tuple graph(const CollectedResult& result) {
  py::list triples;
  for (const auto& [s, p, o] : result.triples) triples.append(py::make_tuple(s, p, o));
  return py::make_tuple("graph", std::move(triples));
}

}  // namespace

CollectedResult collect(const QueryResult& result) {
  CollectedResult collected;
  if (result.isBoolean()) {
    collected.form = CollectedResult::Form::Boolean;
    collected.boolean = result.booleanValue();
  } else if (result.isGraph()) {
    collected.form = CollectedResult::Form::Graph;
    collected.triples.reserve(result.tripleCount());
    result.forEachTriple([&](std::string_view s, std::string_view p, std::string_view o) {
      collected.triples.push_back({std::string(s), std::string(p), std::string(o)});
    });
  } else {
    collected.variables = result.variables();
    collected.rows = result.rows();
  }
  return collected;
}

py::tuple toPython(const CollectedResult& result) {
  switch (result.form) {
    case CollectedResult::Form::Boolean: return py::make_tuple("boolean", result.boolean);
    case CollectedResult::Form::Graph: return graph(result);
    case CollectedResult::Form::Solutions: break;
  }
  return solutions(result);
}

}  // namespace gsparql::python
