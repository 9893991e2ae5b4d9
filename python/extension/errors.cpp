// gsparql's exceptions (include/gsparql/error.h) as Python exceptions of the
// same names and hierarchy, under gsparql.Error; a QueryError carries its
// position as .line and .column (1-based; 0 where no position applies).
#include <gsparql/error.h>

#include <string>

#include "python/extension/bindings.h"

namespace gsparql::python {
namespace {

// The classes, made once as the module is imported and kept for its life.
struct ErrorTypes {
  PyObject* error;
  PyObject* load;
  PyObject* storage;
  PyObject* query;
  PyObject* cancelled;
  PyObject* timedOut;
  PyObject* outOfMemory;
  PyObject* tooLarge;
};
ErrorTypes types;

PyObject* addType(py::module_& module, const char* name, PyObject* base, const char* doc) {
  // Named as the package (gsparql) shows them, not as this module.
  const std::string qualified = std::string("gsparql.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, py::handle(type));
  return type;
}

void raise(PyObject* type, const Error& error) { PyErr_SetString(type, error.what()); }

void raise(PyObject* type, const QueryError& error) {
  py::object instance = py::handle(type)(error.what());
  instance.attr("line") = error.line();
  instance.attr("column") = error.column();
  PyErr_SetObject(type, instance.ptr());
}

// The most derived class first, as the C++ hierarchy has it.
void translate(std::exception_ptr thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const QueryCancelled& e) {
    raise(types.cancelled, e);
  } catch (const QueryTimedOut& e) {
    raise(types.timedOut, e);
  } catch (const QueryOutOfMemory& e) {
    raise(types.outOfMemory, e);
  } catch (const QueryResultTooLarge& e) {
    raise(types.tooLarge, e);
  } catch (const QueryError& e) {
    raise(types.query, e);
  } catch (const LoadError& e) {
    raise(types.load, e);
  } catch (const StorageError& e) {
    raise(types.storage, e);
  } catch (const Error& e) {
    raise(types.error, e);
  }
}

}  // namespace

void bindErrors(py::module_& module) {
  types.error = addType(module, "Error", PyExc_Exception, "Every error of gsparql; the message carries its context.");
  types.load = addType(module, "LoadError", types.error,
                       "Bad RDF input: 'file:line:column: what was wrong' where a position is known.");
  types.storage = addType(module, "StorageError", types.error,
                          "A database directory that cannot be read or written: missing or corrupt files, "
                          "failed system calls, another writer holding the lock.");
  types.query = addType(module, "QueryError", types.error,
                        "A query or update that cannot run: a syntax error, or a feature not supported yet. "
                        ".line and .column give its position (1-based; 0 where none applies).");
  // A QueryError raised from Python (or one without a position) has them too.
  py::handle(types.query).attr("line") = 0;
  py::handle(types.query).attr("column") = 0;
  types.cancelled = addType(module, "QueryCancelled", types.query, "The query was stopped through a gsparql.Cancel.");
  types.timedOut = addType(module, "QueryTimedOut", types.query, "The query ran past its timeout.");
  types.outOfMemory = addType(module, "QueryOutOfMemory", types.query,
                              "The query's intermediate results would outgrow its memory budget.");
  types.tooLarge = addType(module, "QueryResultTooLarge", types.query, "The result has more rows than max_rows.");
  py::register_exception_translator(&translate);
}

}  // namespace gsparql::python
