#include "engine/geo/geos_library.h"

namespace gsparql::engine::geo {

GSPARQL_DEFINE_LIBRARY_TABLE(GeosLibrary, geos, GSPARQL_GEOS_FUNCTIONS, GSPARQL_GEOS_SONAME,
                              "reading and comparing GeoSPARQL geometries")

}  // namespace gsparql::engine::geo
