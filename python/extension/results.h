#pragma once
// A query's result, copied out of the C++ QueryResult (terms in N-Triples
// syntax) without the GIL, then made Python objects with it.
#include <gsparql/query.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

namespace gsparql::python {
namespace py = pybind11;

struct CollectedResult {
  enum class Form { Solutions, Boolean, Graph };
  Form form = Form::Solutions;
  std::vector<std::string> variables;
  std::vector<std::vector<std::optional<std::string>>> rows;  // nullopt: unbound
  bool boolean = false;
  std::vector<std::array<std::string, 3>> triples;
};

CollectedResult collect(const QueryResult& result);

// ("solutions", variables, rows): rows a list of tuples of str or None;
// ("boolean", bool); ("graph", a list of (s, p, o) tuples of str).
py::tuple toPython(const CollectedResult& result);

}  // namespace gsparql::python
