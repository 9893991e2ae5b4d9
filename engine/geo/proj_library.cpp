#include "engine/geo/proj_library.h"

namespace gsparql::engine::geo {

const ProjLibrary& projLibrary() {
  static const ProjLibrary table = [] {
    static const SharedLibrary library(GSPARQL_PROJ_SONAME, "transforming coordinates and measuring geodesics");
    ProjLibrary table;
    GSPARQL_PROJ_FUNCTIONS(GSPARQL_RESOLVE_FUNCTION)
    return table;
  }();
  return table;
}

}  // namespace gsparql::engine::geo
