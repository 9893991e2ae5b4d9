// The spatial join between points and polygons with its points located on
// the GPU (engine/gpu/gpu_point_locator.cu, geo/point_locator.h): the rows
// the CPU executor's join gives, for the relations a point's place decides,
// in both argument orders, with points on vertices, on horizontal and on
// slanted edges (left to GEOS), inside holes and outside every shape; and
// among thousands of shapes, found through the grid of cells over them.
#include <doctest/doctest.h>

#include <cstdio>
#include <random>
#include <string>

#include "engine/gpu/gpu_executor.h"
#include "gsparql/database.h"
#include "support/random_shapes.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kGeo = "http://www.opengis.net/ont/geosparql#";
const std::string kPrefixes = "PREFIX geo: <" + kGeo + "> PREFIX geof: <http://www.opengis.net/def/function/geosparql/> ";

// The rows of `query` with its BGPs on the GPU and its points located
// there, against the CPU executor's; the number of rows.
size_t checkLocatedOnGpu(const Database& db, const std::string& query) {
  CAPTURE(query);
  QueryOptions cpu, gpu;
  cpu.backend = Backend::Cpu;
  gpu.backend = Backend::Gpu;
  gpu.explain = true;
  const QueryResult onGpu = db.query(query, gpu);
  const auto expected = sortedLines(db.query(query, cpu));
  CHECK(sortedLines(onGpu) == expected);
  const std::string plan = onGpu.explain();
  CAPTURE(plan);
  CHECK(plan.find("points located on the executor's device") != std::string::npos);
  return expected.size();
}

}  // namespace

TEST_CASE("points located on the GPU join polygons as the CPU executor's spatial join does") {
  if (!engine::gpuAvailable()) {
    std::printf("no CUDA device: skipped\n");
    return;
  }
  TempDir dir;
  writeFile(dir / "data.nt", shapesAndPoints(80, 60, 6000));
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database db(dir / "db");
  const std::string points = "?p <http://e/type> <http://e/Point> ; geo:asWKT ?w . ";
  const std::string bgp = points + "?s <http://e/type> <http://e/Shape> ; geo:asWKT ?g . ";
  for (const std::string condition : {"geof:sfWithin(?w, ?g)", "geof:sfContains(?g, ?w)", "geof:sfIntersects(?w, ?g)",
                                      "geof:sfIntersects(?g, ?w)"}) {
    CHECK(checkLocatedOnGpu(db, kPrefixes + "SELECT ?p ?s WHERE { " + bgp + "FILTER(" + condition + ") }") > 1000);
  }
  // Against a constant polygon whose envelope more literals meet than a BGP is limited to: a join too.
  const std::string constant = "\"POLYGON((0 0, 60 0, 60 60, 0 60, 0 0), (20 20, 40 20, 30 40, 20 20))\"^^geo:wktLiteral";
  for (const std::string& condition : {"geof:sfWithin(?w, " + constant + ")", "geof:sfIntersects(" + constant + ", ?w)"}) {
    CHECK(checkLocatedOnGpu(db, kPrefixes + "SELECT ?p WHERE { " + points + "FILTER(" + condition + ") }") > 1000);
  }
  // sfTouches is GEOS's alone: no points located.
  QueryOptions gpu;
  gpu.backend = Backend::Gpu;
  gpu.explain = true;
  const std::string touches = kPrefixes + "SELECT ?p ?s WHERE { " + bgp + "FILTER(geof:sfTouches(?w, ?g)) }";
  CHECK(db.query(touches, gpu).explain().find("points located") == std::string::npos);
}

TEST_CASE("points located on the GPU among thousands of polygons, through the grid of cells, join them as the CPU executor does") {
  if (!engine::gpuAvailable()) {
    std::printf("no CUDA device: skipped\n");
    return;
  }
  TempDir dir;
  writeFile(dir / "data.nt", shapesAndPoints(6000, 600, 30000));  // more than the 4,096 read one by one before
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database db(dir / "db");
  const std::string bgp = "?p <http://e/type> <http://e/Point> ; geo:asWKT ?w . "
                          "?s <http://e/type> <http://e/Shape> ; geo:asWKT ?g . ";
  for (const std::string condition : {"geof:sfWithin(?w, ?g)", "geof:sfIntersects(?g, ?w)"}) {
    CHECK(checkLocatedOnGpu(db, kPrefixes + "SELECT ?p ?s WHERE { " + bgp + "FILTER(" + condition + ") }") > 3000);
  }
}
