#pragma once
// The parts of the extension module _gsparql, each adding its classes and
// functions to the module (module.cpp calls them in this order).
#include <pybind11/pybind11.h>

namespace gsparql::python {

namespace py = pybind11;

void bindErrors(py::module_& module);     // errors.cpp
void bindCancel(py::module_& module);     // cancel.cpp
void bindSummaries(py::module_& module);  // summaries.cpp
void bindDatabase(py::module_& module);   // database.cpp

}  // namespace gsparql::python
