// _gsparql.Database: the C++ half of gsparql.Database (python/gsparql/database.py),
// which turns the N-Triples terms it gives into rdflib terms or Python values.
// Every call that may run long (opening, load, query, update) releases the GIL.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "python/extension/bindings.h"
#include "python/extension/database_handle.h"
#include "python/extension/interruptible.h"
#include "python/extension/options.h"
#include "python/extension/results.h"

namespace gsparql::python {
namespace {

// `gpus` and `gpuPeerMemory` as gsparql/database.py checked them: CUDA
// ordinals, ascending and distinct (empty: every GPU); bytes (none: the default).
std::unique_ptr<DatabaseHandle> openDatabase(const std::filesystem::path& path, bool create,
                                             const std::string& backend, uint64_t gpuMemory, uint64_t gpuCache,
                                             uint32_t gpuExecutors, bool gpuPreload, std::vector<uint32_t> gpus,
                                             std::optional<uint64_t> gpuPeerMemory) {
  DatabaseOptions options;
  options.gpuMemoryBytes = gpuMemory;
  options.gpuCacheBytes = gpuCache;
  options.gpuExecutors = gpuExecutors;
  options.gpuPreload = gpuPreload;
  options.gpus = std::move(gpus);
  options.gpuPeerBytes = gpuPeerMemory;
  const Backend chosen = backendFromName(backend);
  py::gil_scoped_release release;
  return std::make_unique<DatabaseHandle>(path, options, chosen, create);
}

py::tuple query(DatabaseHandle& db, std::string text, const py::kwargs& kwargs) {
  const CallOptions options = callOptions(kwargs, db.backend());
  const CollectedResult result = runInterruptibly(
      [&db, text = std::move(text), query = options.query] {
        const std::shared_ptr<const Database> snapshot = db.snapshot();
        return collect(snapshot->query(text, query));
      },
      *options.cancel);
  return toPython(result);
}

UpdateSummary update(DatabaseHandle& db, std::string text, const py::kwargs& kwargs) {
  const CallOptions options = callOptions(kwargs, db.backend());
  return runInterruptibly(
      [&db, text = std::move(text), update = UpdateOptions{options.query}] {
        return Database::update(db.dir(), text, update);
      },
      *options.cancel);
}

// `graph`: an IRI in N-Triples syntax, "<...>". `jsonldContexts`: JSON-LD
// context URLs and the local files read for them.
LoadSummary load(DatabaseHandle& db, const std::vector<std::string>& files, const std::optional<std::string>& graph,
                 bool lenient, const std::optional<std::string>& format,
                 const std::map<std::string, std::string>& jsonldContexts) {
  LoadOptions options;
  options.lenient = lenient;
  options.format = rdfFormatFromName(format);
  options.graph = graph.value_or("");
  options.jsonLdContexts.assign(jsonldContexts.begin(), jsonldContexts.end());
  py::gil_scoped_release release;
  return Database::load(db.dir(), files, options);
}

}  // namespace

void bindDatabase(py::module_& module) {
  using py::arg;
  py::class_<DatabaseHandle>(module, "Database")
      .def(py::init(&openDatabase), arg("path"), py::kw_only(), arg("create") = true, arg("backend") = "auto",
           arg("gpu_memory") = 0, arg("gpu_cache") = 0, arg("gpu_executors") = 1, arg("gpu_preload") = false,
           arg("gpus") = std::vector<uint32_t>{}, arg("gpu_peer_memory") = py::none())
      .def("query", &query, arg("sparql"))
      .def("update", &update, arg("sparql"))
      .def("load", &load, arg("files"), py::kw_only(), arg("graph") = py::none(), arg("lenient") = false,
           arg("format") = py::none(), arg("jsonld_contexts") = std::map<std::string, std::string>{})
      .def("close", &DatabaseHandle::close, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("path", &DatabaseHandle::dir);
  module.def("holds_database", &holdsDatabase, arg("path"), "Whether the directory holds a gsparql database.");
}

}  // namespace gsparql::python
