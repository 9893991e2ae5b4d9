#pragma once
// The keyword arguments of the Python calls, as the C++ API's options.
#include <gsparql/database.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include <pybind11/pybind11.h>

namespace gsparql::python {
namespace py = pybind11;

// A call's QueryOptions and the flag their `cancel` points to: the caller's
// gsparql.Cancel's, else one of the call's own (which Ctrl-C sets).
struct CallOptions {
  QueryOptions query;
  std::shared_ptr<std::atomic<bool>> cancel;
};

// backend, timeout, cancel, default_graphs, named_graphs,
// union_default_graph, base_iri, max_rows, memory_budget (docs/python.md);
// `backend` unless they name one. Another name is a TypeError.
CallOptions callOptions(const py::kwargs& options, Backend backend);

// "auto", "cpu", "gpu"; another is a ValueError.
Backend backendFromName(const std::string& name);

// LoadOptions::format from "nt"/"ntriples", "ttl"/"turtle", "nq"/"nquads"
// or "trig"; none: by each file's extension.
std::optional<RdfFormat> rdfFormatFromName(const std::optional<std::string>& name);

}  // namespace gsparql::python
