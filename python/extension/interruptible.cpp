#include "python/extension/interruptible.h"

#include <pybind11/pybind11.h>

namespace gsparql::python {
namespace py = pybind11;

namespace {
// How late a Ctrl-C may be noticed; the cancelled work then stops within a
// few milliseconds of its own.
constexpr std::chrono::milliseconds kSignalCheckInterval{50};
}  // namespace

void awaitInterruptibly(const std::function<bool(std::chrono::milliseconds)>& doneWithin,
                        std::atomic<bool>& cancel) {
  while (true) {
    {
      py::gil_scoped_release release;
      if (doneWithin(kSignalCheckInterval)) return;
    }
    if (PyErr_CheckSignals() == 0) continue;
    py::error_already_set interrupt;  // taken off the thread, to raise once the work has stopped
    cancel.store(true);
    {
      py::gil_scoped_release release;
      while (!doneWithin(kSignalCheckInterval)) {
      }
    }
    throw interrupt;
  }
}

}  // namespace gsparql::python
