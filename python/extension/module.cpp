// _gsparql: the compiled half of the Python package gsparql (python/gsparql/),
// over the public C++ API of libgsparql.so. It hands N-Triples term strings
// to the Python half, which turns them into rdflib terms or Python values.
#include "python/extension/bindings.h"

PYBIND11_MODULE(_gsparql, module) {
  module.doc() = "gsparql's C++ API for the Python package gsparql (use that package, not this module)";
  module.attr("__version__") = GSPARQL_VERSION;
  gsparql::python::bindErrors(module);
  gsparql::python::bindCancel(module);
  gsparql::python::bindSummaries(module);
  gsparql::python::bindDatabase(module);
}
