#include "python/extension/cancel.h"

#include "python/extension/bindings.h"

namespace gsparql::python {

void bindCancel(py::module_& module) {
  py::class_<Cancel>(module, "Cancel",
                     "Pass it as cancel= to Database.query or Database.update; cancel() from any thread then "
                     "stops them with QueryCancelled. It stays cancelled: calls started with it later stop at "
                     "once.")
      .def(py::init<>())
      .def("cancel", &Cancel::cancel, "Stops the calls running with this object (soon: within a few ms of work).")
      .def_property_readonly("cancelled", &Cancel::cancelled)
      .def("__repr__", [](const Cancel& c) {
        return c.cancelled() ? "<gsparql.Cancel cancelled>" : "<gsparql.Cancel>";
      });
}

}  // namespace gsparql::python
