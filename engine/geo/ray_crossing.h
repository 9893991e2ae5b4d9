#pragma once
// Where a point lies in a polygonal geometry, by the rule of GEOS's
// point-in-area locator (RayCrossingCounter, which its prepared
// sfIntersects, sfWithin and sfContains use for a point): the rightward
// horizontal ray from the point crosses the segments of all the geometry's
// rings; an odd count is the interior, a point on a segment the boundary.
// GEOS takes each orientation's exact sign; here the floating-point
// determinant decides only where its error bound leaves no doubt, and the
// point is Undecided otherwise (on a segment, or within rounding of one):
// the caller asks GEOS then. Every segment counts on its own, so the
// segments may be counted in any order, or split among threads whose counts
// are merged. Plain code for the host and the GPU
// (engine/gpu/gpu_point_locator.cu); tests/engine/ray_crossing_test.cpp
// checks it against GEOS.
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define GSPARQL_GEO_HOST_DEVICE __host__ __device__
#else
#define GSPARQL_GEO_HOST_DEVICE
#endif

namespace gsparql::engine::geo {

enum class PointPlace : uint8_t { Exterior, Interior, Boundary, Undecided };

// One point against segments, counted as GEOS counts them.
struct RayCrossing {
  double px = 0, py = 0;
  uint32_t crossings = 0;
  bool onSegment = false;  // certain: a vertex or a horizontal segment through the point
  bool undecided = false;  // an orientation too close to zero to trust its sign

  // The segment from (x1, y1) to (x2, y2).
  GSPARQL_GEO_HOST_DEVICE void count(double x1, double y1, double x2, double y2) {
    if (x1 < px && x2 < px) return;  // wholly left of the point
    if (px == x2 && py == y2) {
      onSegment = true;
      return;
    }
    if (y1 == py && y2 == py) {  // horizontal at the point's height: never crossed
      if (fmin(x1, x2) <= px && px <= fmax(x1, x2)) onSegment = true;
      return;
    }
    if (!((y1 > py && y2 <= py) || (y2 > py && y1 <= py))) return;  // not across the ray's line
    // Orientation::index(p1, p2, p) as GEOS's filter writes it; its sign is
    // certain beyond this bound, about three times Shewchuk's for orient2d
    // (so FMA contraction, which only shrinks the error, is covered too).
    const double left = (x1 - px) * (y2 - py);
    const double right = (y1 - py) * (x2 - px);
    const double det = left - right;
    const double bound = 1e-15 * (fabs(left) + fabs(right));
    if (!(fabs(det) > bound) || fabs(left) + fabs(right) < 1e-280) {  // near zero, or too small for the bound
      undecided = true;
      return;
    }
    const bool leftOfUpward = (det > 0) != (y2 < y1);  // re-oriented so that the segment points up
    if (leftOfUpward) ++crossings;
  }

  // Merges the counts of another share of the same point's segments.
  GSPARQL_GEO_HOST_DEVICE void merge(uint32_t otherCrossings, bool otherOnSegment, bool otherUndecided) {
    crossings += otherCrossings;
    onSegment = onSegment || otherOnSegment;
    undecided = undecided || otherUndecided;
  }

  // GEOS's location: a point on a segment is on the boundary whatever else
  // was counted; otherwise an undecided segment leaves the parity open.
  GSPARQL_GEO_HOST_DEVICE PointPlace place() const {
    if (onSegment) return PointPlace::Boundary;
    if (undecided) return PointPlace::Undecided;
    return crossings % 2 == 1 ? PointPlace::Interior : PointPlace::Exterior;
  }
};

}  // namespace gsparql::engine::geo
