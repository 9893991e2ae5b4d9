#include "python/extension/options.h"

#include <cmath>
#include <functional>
#include <map>
#include <string_view>
#include <vector>

#include <pybind11/stl.h>

#include "python/extension/cancel.h"

namespace gsparql::python {
namespace {

std::chrono::milliseconds millisecondsFrom(double seconds) {
  if (!(seconds >= 0)) throw py::value_error("timeout must be a number of seconds, 0 or more");
  return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(seconds * 1000)));
}

using Setter = std::function<void(CallOptions&, py::handle)>;

const std::map<std::string_view, Setter>& setters() {
  static const std::map<std::string_view, Setter> table = {
      {"backend", [](CallOptions& o, py::handle v) { o.query.backend = backendFromName(v.cast<std::string>()); }},
      {"timeout",
       [](CallOptions& o, py::handle v) {
         if (!v.is_none()) o.query.timeout = millisecondsFrom(v.cast<double>());
       }},
      {"cancel",
       [](CallOptions& o, py::handle v) {
         if (!v.is_none()) o.cancel = v.cast<const Cancel&>().flag();
       }},
      {"default_graphs",
       [](CallOptions& o, py::handle v) { o.query.defaultGraphs = v.cast<std::vector<std::string>>(); }},
      {"named_graphs", [](CallOptions& o, py::handle v) { o.query.namedGraphs = v.cast<std::vector<std::string>>(); }},
      {"union_default_graph", [](CallOptions& o, py::handle v) { o.query.unionDefaultGraph = v.cast<bool>(); }},
      {"base_iri",
       [](CallOptions& o, py::handle v) {
         if (!v.is_none()) o.query.baseIri = v.cast<std::string>();
       }},
      {"max_rows", [](CallOptions& o, py::handle v) { o.query.maxRows = v.cast<uint64_t>(); }},
      {"memory_budget", [](CallOptions& o, py::handle v) { o.query.memoryBudgetBytes = v.cast<uint64_t>(); }},
  };
  return table;
}

}  // namespace

CallOptions callOptions(const py::kwargs& options, Backend backend) {
  CallOptions call;
  call.query.backend = backend;
  for (const auto& [key, value] : options) {
    const auto name = key.cast<std::string>();
    const auto setter = setters().find(name);
    if (setter == setters().end()) throw py::type_error("unexpected keyword argument '" + name + "'");
    setter->second(call, value);
  }
  if (!call.cancel) call.cancel = std::make_shared<std::atomic<bool>>(false);
  call.query.cancel = call.cancel.get();
  return call;
}

Backend backendFromName(const std::string& name) {
  if (name == "auto") return Backend::Auto;
  if (name == "cpu") return Backend::Cpu;
  if (name == "gpu") return Backend::Gpu;
  throw py::value_error("backend must be 'auto', 'cpu' or 'gpu', not '" + name + "'");
}

std::optional<RdfFormat> rdfFormatFromName(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  if (auto format = gsparql::rdfFormatFromName(*name)) return format;
  throw py::value_error("format must be one of " + gsparql::rdfFormatNames() + " (or a longer name or media type: "
                        "'ntriples', 'turtle', 'application/rdf+xml', ...), not '" + *name + "'");
}

}  // namespace gsparql::python
