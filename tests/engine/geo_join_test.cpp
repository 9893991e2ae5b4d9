// The indexed spatial join and the k-nearest search (docs/geosparql.md)
// against the same queries in a form the planner cannot index: the relation
// as `geof:rel(?g, ?h) || false` (the same rows: an error or false either
// way), the distance as `geof:distance(...) + 0` (the same numbers). Random
// geometries on a small grid, so that touching, equal and nested shapes are
// common, with empty, ill-typed, non-geometry and unbound values among them,
// and each shape written in CRS84 or EPSG:4326 order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/geo/nearest.h"
#include "engine/geo/operations.h"
#include "engine/geo/spatial_index.h"
#include "gsparql/database.h"
#include "support/random_shapes.h"
#include "support/test_support.h"

namespace {

using namespace gsparql;

const std::string kGeo = "http://www.opengis.net/ont/geosparql#";
const std::string kGeof = "http://www.opengis.net/def/function/geosparql/";
const std::string kPrefixes = "PREFIX geo: <" + kGeo + "> PREFIX geof: <" + kGeof +
                              "> PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/> ";

// A random shape on the grid [0, 12] (a point, a segment, a box or a
// triangle), written in CRS84 order or, latitude first, in EPSG:4326.
std::string randomShape(std::mt19937& random, bool epsg4326 = false) {
  std::uniform_int_distribution<int> at(0, 12), size(1, 4), kind(0, 3);
  const int x = at(random), y = at(random), w = size(random), h = size(random);
  auto xy = [&](int a, int b) { return epsg4326 ? std::to_string(b) + " " + std::to_string(a) : std::to_string(a) + " " + std::to_string(b); };
  const std::string crs = epsg4326 ? "<http://www.opengis.net/def/crs/EPSG/0/4326> " : "";
  switch (kind(random)) {
    case 0: return crs + "POINT(" + xy(x, y) + ")";
    case 1: return crs + "LINESTRING(" + xy(x, y) + ", " + xy(x + w, y + h) + ")";
    case 2:
      return crs + "POLYGON((" + xy(x, y) + ", " + xy(x + w, y) + ", " + xy(x + w, y + h) + ", " + xy(x, y + h) + ", " +
             xy(x, y) + "))";
    default: return crs + "POLYGON((" + xy(x, y) + ", " + xy(x + w, y) + ", " + xy(x, y + h) + ", " + xy(x, y) + "))";
  }
}

std::string literal(const std::string& wkt) { return "\"" + wkt + "\"^^<" + kGeo + "wktLiteral>"; }

// `count` subjects <http://e/{prefix}N> with a <http://e/{prefix}> value
// each: random shapes, and the odd values a geometry column can hold.
std::string features(const std::string& prefix, int count, std::mt19937& random) {
  std::string data;
  auto add = [&](int i, const std::string& value) {
    const std::string s = "<http://e/" + prefix + std::to_string(i) + ">";
    data += s + " <http://e/type> <http://e/" + prefix + "Type> .\n";
    if (!value.empty()) data += s + " <http://e/" + prefix + "> " + value + " .\n";
  };
  int i = 0;
  for (; i < count; ++i) {
    add(i, literal(randomShape(random, i % 4 == 0)));
  }
  for (const std::string& odd : {literal("POINT EMPTY"), literal("POLYGON EMPTY"), literal(""), literal("POINT(1"),
                                 literal("POLYGON((0 0, 1 0, 1 1))"), literal("GEOMETRYCOLLECTION(POINT(1 1))"),
                                 std::string("\"POINT(1 1)\""), std::string("<http://e/notALiteral>"),
                                 std::string("")}) {  // the last: no value, unbound under OPTIONAL
    add(i++, odd);
  }
  return data;
}

std::vector<std::string> rows(Database& db, const std::string& query) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  return test::sortedLines(db.query(kPrefixes + query, options));
}

std::string explain(Database& db, const std::string& query) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.explain = true;
  return db.query(kPrefixes + query, options).explain();
}

struct Store {
  test::TempDir dir;
  std::unique_ptr<Database> db;
  explicit Store(const std::string& data) {
    test::writeFile(dir / "data.nt", data);
    Database::load(dir / "db", {(dir / "data.nt").string()});
    db = std::make_unique<Database>(dir / "db");
  }
};

TEST_CASE("a spatial join gives the rows of the filter over the cross product, for every relation that needs a common point") {
  std::mt19937 random(43);
  Store store(features("a", 70, random) + features("b", 50, random));
  int nonEmpty = 0;
  for (const auto& relation : engine::geo::relations()) {
    const std::string f = "geof:" + std::string(relation.name);
    if (!engine::geo::impliesIntersection("<" + kGeof + std::string(relation.name) + ">")) continue;
    for (const std::string order : {"?g, ?h", "?h, ?g"}) {
      const std::string bgp = "?x <http://e/type> <http://e/aType> OPTIONAL { ?x <http://e/a> ?g } "
                              "?y <http://e/type> <http://e/bType> OPTIONAL { ?y <http://e/b> ?h } ";
      const std::string indexed = "SELECT ?x ?y WHERE { " + bgp + "FILTER(" + f + "(" + order + ")) }";
      const std::string scanned = "SELECT ?x ?y WHERE { " + bgp + "FILTER(" + f + "(" + order + ") || false) }";
      CAPTURE(indexed);
      const auto expected = rows(*store.db, scanned);
      CHECK(rows(*store.db, indexed) == expected);
      nonEmpty += expected.empty() ? 0 : 1;
    }
  }
  CHECK(nonEmpty > 30);  // the random shapes do meet in most relations
  // Two BGPs' worth of patterns, a condition on one side, one on both.
  const std::string where = "?x <http://e/a> ?g . ?y <http://e/b> ?h FILTER(";
  const std::string extra = " && STR(?x) < \"http://e/a5\" && STR(?x) != STR(?y))";
  CHECK(rows(*store.db, "SELECT * WHERE { " + where + "geof:sfIntersects(?g, ?h)" + extra + " }") ==
        rows(*store.db, "SELECT * WHERE { " + where + "(geof:sfIntersects(?g, ?h) || false)" + extra + " }"));
  CHECK(explain(*store.db, "SELECT * WHERE { " + where + "geof:sfIntersects(?g, ?h)) }").find("SpatialJoin") !=
        std::string::npos);
}

TEST_CASE("a filter against a constant geometry that more literals meet than a BGP is limited to runs as a spatial join") {
  // 6,000 points on a grid of quarters (some on the polygon's edges and
  // vertices), a line and odd values; the polygon, with a hole, meets the
  // envelopes of about 5,000 distinct literals.
  std::string data;
  std::mt19937 random(3);
  std::uniform_int_distribution<int> grid(0, 180);
  for (int i = 0; i < 6000; ++i) {
    data += "<http://e/p" + std::to_string(i) + "> <http://e/at> " +
            literal("POINT(" + std::to_string(grid(random) / 4.0) + " " + std::to_string(grid(random) / 4.0) + ")") + " .\n";
  }
  data += "<http://e/line> <http://e/at> " + literal("LINESTRING(1 1, 30 30)") + " .\n";
  data += "<http://e/odd> <http://e/at> \"POINT(1 1)\" .\n<http://e/bad> <http://e/at> " + literal("POINT(1") + " .\n";
  Store store(data);
  const std::string polygon = literal("POLYGON((0 0, 41 0, 41 41, 20 45, 0 41, 0 0), (10 10, 20 10, 15 20, 10 10))");
  int nonEmpty = 0;
  for (const std::string& condition : {"geof:sfWithin(?g, " + polygon + ")", "geof:sfContains(" + polygon + ", ?g)",
                                      "geof:sfIntersects(?g, " + polygon + ")", "geof:sfTouches(" + polygon + ", ?g)"}) {
    const std::string indexed = "SELECT * WHERE { ?x <http://e/at> ?g FILTER(" + condition + ") }";
    const std::string scanned = "SELECT * WHERE { ?x <http://e/at> ?g FILTER(" + condition + " || false) }";
    CAPTURE(indexed);
    const auto expected = rows(*store.db, scanned);
    CHECK(rows(*store.db, indexed) == expected);
    nonEmpty += !expected.empty();
    CHECK(explain(*store.db, indexed).find("SpatialJoin") != std::string::npos);
  }
  CHECK(nonEmpty == 4);  // the points on the polygon's boundary touch it
  // With another condition beside it, and below a projection.
  CHECK(rows(*store.db, "SELECT ?x WHERE { ?x <http://e/at> ?g FILTER(geof:sfWithin(?g, " + polygon +
                            ") && STR(?x) < \"http://e/p3\") }") ==
        rows(*store.db, "SELECT ?x WHERE { ?x <http://e/at> ?g FILTER((geof:sfWithin(?g, " + polygon +
                            ") || false) && STR(?x) < \"http://e/p3\") }"));
}

TEST_CASE("a filter against a constant geometry that few literals meet limits the BGP its rows extend, beside OPTIONALs and BINDs") {
  // 3,000 points on a grid of quarters, half of them named, a third of a kind; a line and odd values.
  std::string data;
  std::mt19937 random(5);
  std::uniform_int_distribution<int> grid(0, 180);
  for (int i = 0; i < 3000; ++i) {
    const std::string s = "<http://e/p" + std::to_string(i) + ">";
    data += s + " <http://e/at> " +
            literal("POINT(" + std::to_string(grid(random) / 4.0) + " " + std::to_string(grid(random) / 4.0) + ")") + " .\n";
    if (i % 2 == 0) data += s + " <http://e/name> \"n" + std::to_string(i) + "\" .\n";
    if (i % 3 == 0) data += s + " <http://e/kind> <http://e/K> .\n";
  }
  for (int i = 0; i < 40; ++i) data += "<http://e/k" + std::to_string(i) + "> <http://e/kind> <http://e/K> .\n";  // no point
  data += "<http://e/line> <http://e/at> " + literal("LINESTRING(1 1, 30 30)") + " .\n";
  data += "<http://e/odd> <http://e/at> \"POINT(1 1)\" .\n<http://e/bad> <http://e/at> " + literal("POINT(1") + " .\n";
  Store store(data);
  const std::string polygon = literal("POLYGON((5 5, 12 5, 12 12, 5 12, 5 5), (7 7, 9 7, 8 9, 7 7))");
  for (const std::string& condition : {"geof:sfWithin(?g, " + polygon + ")", "geof:sfIntersects(" + polygon + ", ?g)",
                                      "geof:sfTouches(?g, " + polygon + ")"}) {
    for (const std::string& where :
         {"?x <http://e/at> ?g", "?x <http://e/at> ?g OPTIONAL { ?x <http://e/name> ?n }",
          "?x <http://e/at> ?g OPTIONAL { ?x <http://e/name> ?n FILTER(STR(?n) < \"n5\") }",
          "?x <http://e/at> ?g BIND(STR(?x) AS ?s)", "?x <http://e/at> ?g OPTIONAL { ?x <http://e/kind> ?k } BIND(1 AS ?one)",
          // A triple pattern after the OPTIONAL (it joins the OPTIONAL's left side: optional_left_bgp.h).
          "?x <http://e/at> ?g OPTIONAL { ?x <http://e/name> ?n } ?x <http://e/kind> <http://e/K>",
          // ?g only in the OPTIONAL: not limited (a row without it fails the filter, as it must).
          "?x <http://e/kind> <http://e/K> OPTIONAL { ?x <http://e/at> ?g }"}) {
      const std::string indexed = "SELECT * WHERE { " + where + " FILTER(" + condition + ") }";
      CAPTURE(indexed);
      const auto expected = rows(*store.db, "SELECT * WHERE { " + where + " FILTER(" + condition + " || false) }");
      CHECK(!expected.empty());
      CHECK(rows(*store.db, indexed) == expected);
    }
  }
  const std::string plan = explain(*store.db, "SELECT * WHERE { ?x <http://e/at> ?g OPTIONAL { ?x <http://e/name> ?n } "
                                              "FILTER(geof:sfWithin(?g, " + polygon + ")) }");
  CAPTURE(plan);
  CHECK(plan.find("?g from one of") != std::string::npos);
  const std::string after = explain(*store.db, "SELECT * WHERE { ?x <http://e/at> ?g OPTIONAL { ?x <http://e/name> ?n } "
                                               "?x <http://e/kind> <http://e/K> FILTER(geof:sfWithin(?g, " + polygon + ")) }");
  CAPTURE(after);
  CHECK(after.find("?g from one of") != std::string::npos);
}

TEST_CASE("points located on the host's cores join polygons as GEOS alone does, many-sided polygons left to GEOS") {
  // Random polygons with holes and parts (points on their vertices and
  // edges), and a disc of 400 sides over some of them, which GEOS decides.
  // (GEOS alone decides 2,000 x 41 pairs a relation: kept small for ASan.)
  std::string data = test::shapesAndPoints(40, 60, 2000);
  std::string disc = "POLYGON((";
  for (int i = 0; i <= 400; ++i) {
    const double angle = 2 * 3.141592653589793 * (i % 400) / 400;
    disc += (i ? ", " : "") + test::wktPoint(30 + 12 * std::cos(angle), 30 + 12 * std::sin(angle));
  }
  data += "<http://e/disc> <http://e/type> <http://e/Shape> .\n<http://e/disc> <" + kGeo + "asWKT> " +
          literal(disc + "))") + " .\n";
  Store store(data);
  const std::string bgp = "?p <http://e/type> <http://e/Point> ; geo:asWKT ?w . "
                          "?s <http://e/type> <http://e/Shape> ; geo:asWKT ?g . ";
  for (const std::string condition : {"geof:sfWithin(?w, ?g)", "geof:sfContains(?g, ?w)", "geof:sfIntersects(?w, ?g)"}) {
    const std::string query = "SELECT ?p ?s WHERE { " + bgp + "FILTER(" + condition + ") }";
    const std::string scanned = "SELECT ?p ?s WHERE { " + bgp + "FILTER(" + condition + " || false) }";
    CAPTURE(query);
    const auto expected = rows(*store.db, scanned);
    CHECK(rows(*store.db, query) == expected);
    CHECK(expected.size() > 300);
    const std::string plan = explain(*store.db, query);
    CAPTURE(plan);
    CHECK(plan.find("2000 points located on the host's cores") != std::string::npos);
    CHECK(plan.find(", 0 pairs left to GEOS") == std::string::npos);  // the disc's
  }
}

TEST_CASE("the query rewrite's topological property between features runs as a spatial join") {
  std::mt19937 random(7);
  std::string data;
  for (int i = 0; i < 150; ++i) {
    const std::string f = "<http://e/f" + std::to_string(i) + ">", g = "<http://e/g" + std::to_string(i) + ">";
    data += f + " <" + kGeo + "hasDefaultGeometry> " + g + " .\n" + g + " <" + kGeo + "asWKT> " +
            literal(randomShape(random)) + " .\n";
  }
  Store store(data);
  const std::string path = " geo:hasDefaultGeometry?/(geo:asWKT|geo:asGML) ";
  for (const std::string relation : {"sfWithin", "sfTouches", "rcc8po"}) {
    CAPTURE(relation);
    const std::string derived = "SELECT DISTINCT ?a ?b WHERE { { ?a geo:" + relation + " ?b } UNION { ?a" + path +
                                "?w1 . ?b" + path + "?w2 FILTER(geof:" + relation + "(?w1, ?w2) || false) } }";
    const auto expected = rows(*store.db, derived);
    CHECK(rows(*store.db, "SELECT ?a ?b WHERE { ?a geo:" + relation + " ?b }") == expected);
    CHECK(expected.size() > 150);  // each feature and geometry with itself, at least
  }
  CHECK(explain(*store.db, "SELECT ?a ?b WHERE { ?a geo:sfWithin ?b }").find("SpatialJoin") != std::string::npos);
}

TEST_CASE("k-nearest through the index: the rows of ORDER BY over every row") {
  std::mt19937 random(11);
  std::string data = features("a", 300, random);
  // Ties: shapes repeated on other subjects.
  for (int i = 0; i < 20; ++i) data += "<http://e/t" + std::to_string(i) + "> <http://e/a> " + literal("POINT(6 6)") + " .\n";
  Store store(data);
  for (const std::string unit : {"uom:metre", "uom:degree", "uom:radian"}) {
    for (const std::string from : {"POINT(6.5 6.2)", "POLYGON((3 3, 4 3, 4 5, 3 3))", "POINT(170 -80)"}) {
      for (const std::string slice : {"LIMIT 1", "LIMIT 7", "LIMIT 25 OFFSET 3", "LIMIT 1000"}) {
        const std::string d = "geof:distance(?g, " + literal(from) + ", " + unit + ")";
        const std::string select = "SELECT ?x ?g (" + d + " AS ?d) WHERE { ?x <http://e/a> ?g } ";
        CAPTURE(select);
        CAPTURE(slice);
        const auto expected = rows(*store.db, select + "ORDER BY (" + d + " + 0) ?x " + slice);
        CHECK(rows(*store.db, select + "ORDER BY " + d + " ?x " + slice) == expected);
        CHECK(rows(*store.db, select + "ORDER BY ASC(" + d + ") ?x " + slice) == expected);
        // The key as the variable a select expression or a BIND gives it (read through the BIND).
        CHECK(rows(*store.db, select + "ORDER BY ?d ?x " + slice) == expected);
        const std::string bind = "SELECT ?x ?g ?d WHERE { ?x <http://e/a> ?g BIND(" + d + " AS ?d) } ";
        CHECK(rows(*store.db, bind + "ORDER BY ?d ?x " + slice) == expected);
        CHECK(rows(*store.db, bind + "ORDER BY (?d + 0) ?x " + slice) == expected);
      }
    }
  }
  const std::string nearest = "SELECT ?x WHERE { ?x <http://e/a> ?g } ORDER BY geof:distance(" +
                              literal("POINT(1 1)") + ", ?g, uom:metre) LIMIT 3";
  CHECK(explain(*store.db, nearest).find("NearestCandidates") != std::string::npos);
  // Below the BIND, which then runs on the rows kept only.
  const std::string bound = explain(*store.db, "SELECT ?x ?e WHERE { ?x <http://e/a> ?g BIND(geof:distance(" +
                                                   literal("POINT(1 1)") + ", ?g, uom:metre) AS ?e) } ORDER BY ?e LIMIT 3");
  CAPTURE(bound);
  CHECK(bound.find("Extend") < bound.find("NearestCandidates"));
}

TEST_CASE("k-nearest over a predicate of geometries only: the nearest literals tried first, the rest when they fall short") {
  std::mt19937 random(17);
  std::string data;
  // Shapes of a predicate that has no other objects; a third of the subjects of a kind.
  for (int i = 0; i < 400; ++i) {
    const std::string s = "<http://e/c" + std::to_string(i) + ">";
    data += s + " <http://e/clean> " + literal(randomShape(random, i % 5 == 0)) + " .\n";
    if (i % 3 == 0) data += s + " <http://e/kind> <http://e/K> .\n";
  }
  for (int i = 0; i < 10; ++i) data += "<http://e/d" + std::to_string(i) + "> <http://e/clean> " + literal("POINT(7 7)") + " .\n";
  // Of the kind, without a shape: unbound under OPTIONAL, first in the order.
  for (int i = 0; i < 5; ++i) data += "<http://e/e" + std::to_string(i) + "> <http://e/kind> <http://e/K> .\n";
  Store store(data);
  // Under FILTERs that keep every row, about a tenth, and about one in a
  // hundred (fewer than the nearest literals give: the whole input then).
  for (const std::string& where : std::vector<std::string>
       {"?x <http://e/clean> ?g", "?x <http://e/clean> ?g . ?x <http://e/kind> <http://e/K>",
        "?x <http://e/clean> ?g FILTER(?x != <http://e/c1>)", "?x <http://e/clean> ?g FILTER(STRENDS(STR(?x), \"7\"))",
        "?x <http://e/clean> ?g FILTER(STRENDS(STR(?x), \"17\") && ?x != <http://e/c1>)",
        // OPTIONALs: ?g on their left (limited there), under a FILTER, and only in the OPTIONAL (not limited).
        "?x <http://e/clean> ?g OPTIONAL { ?x <http://e/kind> ?k }",
        "?x <http://e/clean> ?g OPTIONAL { ?x <http://e/kind> ?k FILTER(?k != <http://e/K>) }",
        "?x <http://e/clean> ?g OPTIONAL { ?x <http://e/kind> ?k } FILTER(!BOUND(?k) || STRENDS(STR(?x), \"3\"))",
        "?x <http://e/kind> <http://e/K> OPTIONAL { ?x <http://e/clean> ?g }",
        // A triple pattern after the OPTIONAL joins its left side (optional_left_bgp.h).
        "?x <http://e/clean> ?g OPTIONAL { ?x <http://e/kind> ?k FILTER(?k != <http://e/K>) } ?x <http://e/kind> <http://e/K>",
        // A spatial filter limits the same variable: the nearest literals among its candidates.
        "?x <http://e/clean> ?g FILTER(geof:sfIntersects(?g, " + literal("POLYGON((4 4, 9 4, 9 9, 4 9, 4 4))") + "))"}) {
    for (const std::string unit : {"uom:metre", "uom:degree"}) {
      for (const std::string slice : {"LIMIT 1", "LIMIT 10", "LIMIT 70", "LIMIT 30 OFFSET 100", "LIMIT 5000"}) {
        const std::string d = "geof:distance(?g, " + literal("POINT(7.2 6.9)") + ", " + unit + ")";
        const std::string select = "SELECT ?x (" + d + " AS ?d) WHERE { " + where + " } ";
        CAPTURE(select);
        CAPTURE(slice);
        const auto expected = rows(*store.db, select + "ORDER BY (" + d + " + 0) ?x " + slice);
        CHECK(rows(*store.db, select + "ORDER BY " + d + " ?x " + slice) == expected);
        CHECK(rows(*store.db, "SELECT ?x ?d WHERE { " + where + " BIND(" + d + " AS ?d) } ORDER BY ?d ?x " + slice) ==
              expected);
      }
    }
  }
  // The limited input ran, and the whole one did not.
  const std::string plan = explain(*store.db, "SELECT ?x WHERE { ?x <http://e/clean> ?g } ORDER BY geof:distance(?g, " +
                                                  literal("POINT(1 1)") + ", uom:degree) LIMIT 3");
  CHECK(plan.find("constants") != std::string::npos);
  CHECK(plan.find("not run") != std::string::npos);
  const std::string filtered = explain(*store.db, "SELECT ?x WHERE { ?x <http://e/clean> ?g FILTER(STRENDS(STR(?x), \"7\")) } "
                                                  "ORDER BY geof:distance(?g, " + literal("POINT(1 1)") + ", uom:degree) LIMIT 3");
  CAPTURE(filtered);
  CHECK(filtered.find("one of 64 constants") != std::string::npos);
  // No wider input: twice 64 literals is more than an eighth of the 410 the index holds; the whole input next.
  CHECK(filtered.find("one of 128 constants") == std::string::npos);
  const std::string optional = explain(*store.db, "SELECT ?x WHERE { ?x <http://e/clean> ?g OPTIONAL { ?x <http://e/kind> ?k } } "
                                                  "ORDER BY geof:distance(?g, " + literal("POINT(1 1)") + ", uom:degree) LIMIT 3");
  CAPTURE(optional);
  CHECK(optional.find("one of 64 constants") != std::string::npos);
  CHECK(optional.find("not run") != std::string::npos);
  const std::string bound = explain(*store.db, "SELECT ?x ?e WHERE { ?x <http://e/clean> ?g BIND(geof:distance(?g, " +
                                                   literal("POINT(1 1)") + ", uom:degree) AS ?e) } ORDER BY ?e LIMIT 3");
  CHECK(bound.find("constants") != std::string::npos);
  CHECK(bound.find("not run") != std::string::npos);
}

TEST_CASE("k-nearest below a FILTER that keeps few rows: more of the nearest literals, planned as they are needed") {
  std::mt19937 random(23);
  std::uniform_int_distribution<int> at(0, 100000);
  std::string data;
  for (int i = 0; i < 40000; ++i) {
    const std::string point = "POINT(" + std::to_string(at(random) / 1e4) + " " + std::to_string(at(random) / 1e4) + ")";
    data += "<http://e/p" + std::to_string(i) + "> <http://e/at> " + literal(point) + " .\n";
  }
  Store store(data);
  // Keeping about one row in 10, 100, 1,000 and 10,000 (fewer than the wider inputs give: the whole input then).
  for (const std::string ending : {"7", "17", "217", "3217"}) {
    for (const std::string slice : {"LIMIT 1", "LIMIT 3", "LIMIT 10 OFFSET 2"}) {
      const std::string d = "geof:distance(?g, " + literal("POINT(3.1 6.7)") + ", uom:metre)";
      const std::string where = "WHERE { ?x <http://e/at> ?g FILTER(STRENDS(STR(?x), \"" + ending + "\")) } ";
      CAPTURE(where);
      CAPTURE(slice);
      const auto expected = rows(*store.db, "SELECT ?x " + where + "ORDER BY (" + d + " + 0) ?x " + slice);
      CHECK(!expected.empty());
      CHECK(rows(*store.db, "SELECT ?x " + where + "ORDER BY " + d + " ?x " + slice) == expected);
    }
  }
  // One in a hundred, 3 wanted: the input of the 64 nearest literals gives too few rows (none or one), a wider
  // one planned after it enough; the whole input never runs.
  const std::string plan = explain(*store.db, "SELECT ?x WHERE { ?x <http://e/at> ?g FILTER(STRENDS(STR(?x), \"17\")) } "
                                              "ORDER BY geof:distance(?g, " + literal("POINT(3.1 6.7)") + ", uom:metre) LIMIT 3");
  CAPTURE(plan);
  const size_t wider = plan.find("constants;", plan.find("one of 64 constants;") + 20);
  CHECK(wider < plan.find('\n', wider));
  CHECK(plan.find("actual", wider) < plan.find('\n', wider));
  const size_t whole = plan.rfind("Filter STRENDS");
  CHECK(whole > wider);
  CHECK(plan.find("not run", whole) < plan.find('\n', whole));
}

TEST_CASE("k-nearest after an update gives the predicate a value the index lacks: the decision kept is not reused") {
  std::mt19937 random(23);
  std::string data;
  for (int i = 0; i < 200; ++i) {
    data += "<http://e/c" + std::to_string(i) + "> <http://e/clean> " + literal(randomShape(random)) + " .\n";
  }
  Store store(data);
  const std::string d = "geof:distance(?g, " + literal("POINT(7.2 6.9)") + ", uom:degree)";
  const std::string select = "SELECT ?x WHERE { ?x <http://e/clean> ?g } ";
  const auto check = [&](Database& db) {
    CHECK(rows(db, select + "ORDER BY " + d + " ?x LIMIT 4") == rows(db, select + "ORDER BY (" + d + " + 0) ?x LIMIT 4"));
  };
  check(*store.db);  // decides (and keeps) that every value of <http://e/clean> is indexed
  // An IRI and an ill-typed literal: errors, which sort first.
  Database::update(store.dir / "db", "INSERT DATA { <http://e/odd1> <http://e/clean> <http://e/notALiteral> . "
                                     "<http://e/odd2> <http://e/clean> " + literal("POINT(1") + " }");
  Database updated = store.db->newest();
  const auto odd = rows(updated, select + "ORDER BY " + d + " ?x LIMIT 4");
  CHECK(std::count_if(odd.begin(), odd.end(), [](const std::string& r) { return r.find("odd") != std::string::npos; }) == 2);
  check(updated);
}

TEST_CASE("k-nearest from a constant that many subjects share starts from the nearest literals") {
  std::string data;
  for (int i = 0; i < 3000; ++i) {
    const std::string s = "<http://e/c" + std::to_string(i) + ">";
    data += s + " <http://e/kind> <http://e/K> .\n";
    data += s + " <http://e/at> " + literal("POINT(" + std::to_string(i % 60) + " " + std::to_string(i / 60) + ")") +
            " .\n";
  }
  Store store(data);
  const std::string d = "geof:distance(?g, " + literal("POINT(30.2 20.7)") + ", uom:metre)";
  const std::string select = "SELECT ?x WHERE { ?x <http://e/kind> <http://e/K> ; <http://e/at> ?g } ";
  CHECK(rows(*store.db, select + "ORDER BY " + d + " ?x LIMIT 5") ==
        rows(*store.db, select + "ORDER BY (" + d + " + 0) ?x LIMIT 5"));
  const std::string plan = explain(*store.db, select + "ORDER BY " + d + " LIMIT 5");
  CAPTURE(plan);
  CHECK(plan.find("1. ?g from one of 64 constants") != std::string::npos);
}

TEST_CASE("the index's searches give what a scan of every envelope gives: those meeting a box, those of least bounds") {
  using engine::geo::Box;
  std::mt19937 random(23);
  std::uniform_real_distribution<double> lon(-180, 175), lat(-90, 85), size(0, 5);
  const auto number = [](double v) { return std::to_string(v); };
  for (const int n : {0, 1, 15, 16, 17, 257, 4000}) {
    std::vector<std::string> terms;
    for (int i = 0; i < n; ++i) {
      const double x = lon(random), y = lat(random);
      terms.push_back(literal(i % 3 == 0 ? "POINT(" + number(x) + " " + number(y) + ")"
                                         : "LINESTRING(" + number(x) + " " + number(y) + ", " +
                                               number(x + size(random)) + " " + number(y + size(random)) + ")"));
    }
    const engine::geo::SpatialIndex index([&](const engine::geo::SpatialIndex::Visit& visit) {
      for (size_t i = 0; i < terms.size(); ++i) visit(static_cast<uint32_t>(3 * i + 1), terms[i]);
    });
    REQUIRE(index.size() == static_cast<size_t>(n));
    for (const Box query : {Box{0, 0, 0, 0}, Box{170, 80, 179, 89}, Box{-10, -60, 40, 10}}) {
      std::vector<uint32_t> meeting;  // the envelopes that meet the query's, by a scan
      for (const auto& [id, b] : index.boxes()) {
        if (b.minX <= query.maxX && query.minX <= b.maxX && b.minY <= query.maxY && query.minY <= b.maxY) {
          meeting.push_back(id);
        }
      }
      CHECK(index.candidates(query) == meeting);
      for (auto unit : {engine::geo::Unit::Metre, engine::geo::Unit::Degree}) {
        const auto bound = [&](const Box& b) { return engine::geo::distanceLowerBound(b, query, unit); };
        std::vector<double> all;
        for (const auto& [id, box] : index.boxes()) all.push_back(bound(box));
        std::sort(all.begin(), all.end());
        for (const size_t count : {size_t{0}, size_t{1}, size_t{10}, size_t{64}, size_t{5000}}) {
          CAPTURE(n);
          CAPTURE(count);
          const auto [ids, cutoff] = index.leastBounded(count, bound);
          REQUIRE(ids.size() == std::min(count, all.size()));
          CHECK(std::is_sorted(ids.begin(), ids.end()));
          std::vector<double> found;
          for (uint32_t id : ids) found.push_back(bound(*index.box(id)));
          std::sort(found.begin(), found.end());
          CHECK(found == std::vector<double>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(ids.size())));
          CHECK(cutoff == (ids.size() < all.size() ? all[ids.size()] : std::numeric_limits<double>::infinity()));
        }
        // Several counts in one search: what each alone gives, but for ties at the bound.
        const size_t counts[] = {0, 1, 10, 64, 512, 5000};
        const auto sets = index.leastBounded(counts, bound);
        REQUIRE(sets.size() == std::size(counts));
        for (size_t i = 0; i < sets.size(); ++i) {
          CAPTURE(counts[i]);
          const auto& [ids, cutoff] = sets[i];
          CHECK(ids.size() == std::min(counts[i], all.size()));
          CHECK(std::is_sorted(ids.begin(), ids.end()));
          if (i > 0) CHECK(std::includes(ids.begin(), ids.end(), sets[i - 1].first.begin(), sets[i - 1].first.end()));
          double farthest = -std::numeric_limits<double>::infinity();
          for (uint32_t id : ids) farthest = std::max(farthest, bound(*index.box(id)));
          CHECK(farthest <= cutoff);
          CHECK(cutoff == (ids.size() < all.size() ? all[ids.size()] : std::numeric_limits<double>::infinity()));
        }
      }
    }
  }
}

TEST_CASE("distance lower bounds never exceed the distance") {
  using engine::geo::Box;
  std::mt19937 random(5);
  std::uniform_real_distribution<double> lon(-180, 180), lat(-90, 90), size(0, 20);
  for (int i = 0; i < 2000; ++i) {
    // To the 6 decimals the points below are written with.
    auto draw = [&](std::uniform_real_distribution<double>& d) { return std::round(d(random) * 1e6) / 1e6; };
    const double x1 = draw(lon), y1 = draw(lat), x2 = draw(lon), y2 = draw(lat);
    const Box a{x1, y1, std::min(180.0, x1 + draw(size)), std::min(90.0, y1 + draw(size))};
    const Box b{x2, y2, std::min(180.0, x2 + draw(size)), std::min(90.0, y2 + draw(size))};
    const auto point = [](double x, double y) {
      return engine::geo::readWkt("POINT(" + std::to_string(x) + " " + std::to_string(y) + ")");
    };
    // Corners of the boxes: points within them.
    const auto p = point(a.minX, a.maxY), q = point(b.maxX, b.minY);
    for (auto unit : {engine::geo::Unit::Metre, engine::geo::Unit::Degree, engine::geo::Unit::Radian}) {
      CHECK(engine::geo::distanceLowerBound(a, b, unit) <= engine::geo::distance(p, q, unit));
    }
  }
}

}  // namespace
