#include "loaders/raptor_library.h"

namespace gsparql {

const RaptorLibrary& raptorLibrary() {
  static const RaptorLibrary table = [] {
    static const SharedLibrary library(GSPARQL_RAPTOR_SONAME, "reading RDF/XML");
    RaptorLibrary table;
    GSPARQL_RAPTOR_FUNCTIONS(GSPARQL_RESOLVE_FUNCTION)
    return table;
  }();
  return table;
}

}  // namespace gsparql
