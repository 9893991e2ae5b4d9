// What a load and an update report (gsparql/load.h, gsparql/update.h), as
// read-only Python objects.
#include <gsparql/load.h>
#include <gsparql/update.h>

#include <string>

#include <pybind11/stl.h>

#include "python/extension/bindings.h"

namespace gsparql::python {

void bindSummaries(py::module_& module) {
  py::class_<LoadSummary>(module, "LoadSummary", "What Database.load did.")
      .def_readonly("triples_read", &LoadSummary::triplesRead)
      .def_readonly("unique_triples", &LoadSummary::uniqueTriples, "in the database after the load")
      .def_readonly("terms", &LoadSummary::terms)
      .def_readonly("predicates", &LoadSummary::predicates)
      .def_readonly("seconds", &LoadSummary::seconds)
      .def_readonly("skipped_statements", &LoadSummary::skippedStatements, "bad statements skipped (lenient=True)")
      .def_readonly("first_errors", &LoadSummary::firstErrors, "'file:line:column: message', at most five")
      .def("__repr__", [](const LoadSummary& s) {
        return "<gsparql.LoadSummary " + std::to_string(s.triplesRead) + " triples read, " +
               std::to_string(s.uniqueTriples) + " in the database>";
      });

  py::class_<UpdateSummary>(module, "UpdateSummary", "What Database.update did.")
      .def_readonly("operations", &UpdateSummary::operations)
      .def_readonly("changed", &UpdateSummary::changed, "False when the request changed nothing")
      .def_readonly("triples_before", &UpdateSummary::triplesBefore)
      .def_readonly("triples_after", &UpdateSummary::triplesAfter)
      .def_readonly("seconds", &UpdateSummary::seconds)
      .def_property_readonly("snapshot", &UpdateSummary::snapshot,
                             "what readers see after it: 'generation 4' or 'generation 4 + delta file 2'")
      .def("__repr__", [](const UpdateSummary& s) {
        return "<gsparql.UpdateSummary " + std::to_string(s.triplesBefore) + " -> " +
               std::to_string(s.triplesAfter) + " triples, " + s.snapshot() + ">";
      });
}

}  // namespace gsparql::python
