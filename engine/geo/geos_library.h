#pragma once
// The functions of GEOS's C API that the geometry layer calls, from
// libgeos_c opened on first use (platform/shared_library.h): libgeos_c and
// libgeos, whose thousands of symbols the dynamic loader would otherwise
// bind at every process's start (libgeos binds them all at once), load only
// when a query, a load or a function first reads or makes a geometry.
#ifndef GEOS_USE_ONLY_R_API
#define GEOS_USE_ONLY_R_API
#endif
#include <geos_c.h>

#include "platform/shared_library.h"

namespace gsparql::engine::geo {

#define GSPARQL_GEOS_FUNCTIONS(X) \
  X(GEOSArea_r) X(GEOSBoundary_r) X(GEOSBuffer_r) X(GEOSContains_r) X(GEOSContext_setErrorMessageHandler_r)        \
  X(GEOSConvexHull_r) X(GEOSCoordSeq_destroy_r) X(GEOSCoordSeq_getSize_r) X(GEOSCoordSeq_getXY_r)                  \
  X(GEOSCrosses_r) X(GEOSDifference_r) X(GEOSDisjoint_r) X(GEOSDistance_r) X(GEOSEnvelope_r)                       \
  X(GEOSEqualsExact_r) X(GEOSEquals_r) X(GEOSFree_r) X(GEOSGeoJSONReader_create_r)                                 \
  X(GEOSGeoJSONReader_destroy_r) X(GEOSGeoJSONReader_readGeometry_r) X(GEOSGeoJSONWriter_create_r)                 \
  X(GEOSGeoJSONWriter_destroy_r) X(GEOSGeoJSONWriter_writeGeometry_r) X(GEOSGeomGetY_r) X(GEOSGeomTypeId_r)        \
  X(GEOSGeom_clone_r) X(GEOSGeom_createRectangle_r) X(GEOSGeom_destroy_r) X(GEOSGeom_getCoordSeq_r)                \
  X(GEOSGeom_getCoordinateDimension_r) X(GEOSGeom_getDimensions_r) X(GEOSGeom_getExtent_r)                         \
  X(GEOSGeom_getXMax_r) X(GEOSGeom_getXMin_r) X(GEOSGeom_getYMax_r) X(GEOSGeom_getYMin_r)                          \
  X(GEOSGeom_transformXY_r) X(GEOSGetCentroid_r) X(GEOSGetExteriorRing_r) X(GEOSGetGeometryN_r)                    \
  X(GEOSGetInteriorRingN_r) X(GEOSGetNumGeometries_r) X(GEOSGetNumInteriorRings_r) X(GEOSIntersection_r)           \
  X(GEOSIntersects_r) X(GEOSLength_r) X(GEOSNearestPoints_r) X(GEOSOverlaps_r) X(GEOSPrepare_r)                    \
  X(GEOSPreparedContains_r) X(GEOSPreparedCrosses_r) X(GEOSPreparedGeom_destroy_r) X(GEOSPreparedIntersects_r)     \
  X(GEOSPreparedOverlaps_r) X(GEOSPreparedTouches_r) X(GEOSPreparedWithin_r) X(GEOSRelatePattern_r)                \
  X(GEOSSTRtree_create_r) X(GEOSSTRtree_destroy_r) X(GEOSSTRtree_insert_r) X(GEOSSTRtree_query_r)                  \
  X(GEOSSymDifference_r) X(GEOSTouches_r) X(GEOSUnion_r) X(GEOSWKTReader_create_r) X(GEOSWKTReader_destroy_r)      \
  X(GEOSWKTReader_read_r) X(GEOSWKTWriter_create_r) X(GEOSWKTWriter_destroy_r)                                     \
  X(GEOSWKTWriter_setOutputDimension_r) X(GEOSWKTWriter_setTrim_r) X(GEOSWKTWriter_write_r) X(GEOSWithin_r)        \
  X(GEOS_finish_r) X(GEOS_init_r) X(GEOSisEmpty_r) X(GEOSisSimple_r) X(GEOSUnaryUnion_r)                           \
  X(GEOSMinimumBoundingCircle_r) X(GEOSGeom_createCollection_r)

struct GeosLibrary {
  GSPARQL_GEOS_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

// Loads libgeos_c on the first call (from any thread). When it cannot, an
// Error that fails the query or load (not a GeoError, which a function's
// caller would take for an unbound value).
const GeosLibrary& geos();

}  // namespace gsparql::engine::geo
