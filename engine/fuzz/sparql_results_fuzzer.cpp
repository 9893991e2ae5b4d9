// The SERVICE results reader (engine/service/sparql_results.h) on any bytes:
// the first byte picks JSON or XML, the rest is the body. Every input must
// read or throw RemoteFailure, and every term read must be one term of the
// engine's form.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/service/remote_failure.h"
#include "engine/service/sparql_results.h"
#include "rdf/term.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gsparql::engine::service;
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  SparqlResults results;
  try {
    results = data[0] % 2 == 0 ? readJsonResults(body) : readXmlResults(body);
  } catch (const RemoteFailure&) {
    return 0;
  }
  for (const auto& row : results.rows) {
    if (row.size() > results.variables.size()) std::abort();
    for (const auto& cell : row) {
      if (cell && cell->empty()) std::abort();
      if (cell) (void)gsparql::rdf::termKind(*cell);
    }
  }
  return 0;
}
