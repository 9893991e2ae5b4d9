#pragma once
// The functions of PROJ that projection.cpp calls, from libproj opened on
// first use (platform/shared_library.h): PROJ brings SQLite, libtiff and
// libcurl, which a process that transforms no coordinate never loads.
#include <geodesic.h>
#include <proj.h>

#include "platform/shared_library.h"

namespace gsparql::engine::geo {

#define GSPARQL_PROJ_FUNCTIONS(X)                                                                  \
  X(proj_context_create) X(proj_context_destroy) X(proj_context_set_enable_network) X(proj_log_level) \
  X(proj_create) X(proj_create_crs_to_crs) X(proj_destroy) X(proj_get_type) X(proj_trans) X(proj_coord) \
  X(geod_init) X(geod_inverse) X(geod_polygonarea)

struct ProjLibrary {
  GSPARQL_PROJ_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

// Loads libproj on the first call (from any thread). When it cannot, an
// Error that fails the query (not a GeoError, which a function's caller
// would take for an unbound value).
const ProjLibrary& projLibrary();

}  // namespace gsparql::engine::geo
