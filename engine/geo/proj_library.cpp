#include "engine/geo/proj_library.h"

namespace gsparql::engine::geo {

GSPARQL_DEFINE_LIBRARY_TABLE(ProjLibrary, projLibrary, GSPARQL_PROJ_FUNCTIONS, GSPARQL_PROJ_SONAME,
                              "transforming coordinates and measuring geodesics")

}  // namespace gsparql::engine::geo
