#pragma once
// Random polygonal shapes as WKT, on a grid of halves, so that points on
// their vertices and edges are easy to make (the spatial joins' tests).
#include <random>
#include <string>
#include <vector>

namespace gsparql::test {

// "x y" with the coordinates written in full.
std::string wktPoint(double x, double y);
// Shape kind i % 4 near (cx, cy), within about 5 of it: a star-shaped
// polygon of 3-24 corners, one with a hole, a multipolygon of two such
// parts 5 apart, or a 3 x 2 rectangle.
std::string randomPolygonalWkt(std::mt19937& random, int i, double cx, double cy);
// N-Triples: `shapes` random polygonal shapes <http://e/ShapeN> on [0, side]^2
// and `points` points <http://e/PointN> (a vertex of every shape, on its
// boundary, then random points of the grid of halves), each typed
// <http://e/Shape> or <http://e/Point>, its WKT literal under geo:asWKT.
std::string shapesAndPoints(int shapes, int side, int points);

}  // namespace gsparql::test
