// GeoSPARQL functions (geof:, docs/geosparql.md): adapters between SPARQL
// terms and the geometry layer (engine/geo/), which does the work. A
// geometry argument that is not a geometry literal that reads, a unit that is
// not known, or a GEOS failure is the function's error.
#include <algorithm>
#include <array>
#include <list>
#include <cmath>
#include <functional>
#include <memory>
#include <tuple>
#include <utility>

#include "engine/expr/builtins.h"
#include "engine/expr/numeric.h"
#include "engine/geo/geos_library.h"
#include "engine/geo/operations.h"

namespace gsparql::engine::expr {
namespace {

using geo::GeoError;
using geo::Geometry;

constexpr std::string_view kGeof = "http://www.opengis.net/def/function/geosparql/";

// The call's result, or its error when the geometry layer throws.
Result guarded(const std::function<std::string()>& body) {
  try {
    return body();
  } catch (const GeoError&) {
    return std::nullopt;
  }
}

// The geometry of a literal argument. The last ones read on this thread are
// kept: a join or the query rewrite tests one literal against many.
std::shared_ptr<const Geometry> geometry(const Arg& a) {
  if (!a.term.isLiteral()) throw GeoError("not a geometry literal");
  constexpr size_t kKept = 64, kMaxKeptBytes = size_t{1} << 20;
  struct Cache {
    Cache() { geo::context(); }  // made first, so destroyed after the cache at thread exit
    std::list<std::pair<std::string, std::shared_ptr<const Geometry>>> recent;  // most recent first
  };
  thread_local Cache cache;
  std::string key = a.term.datatype + '\n' + a.term.value;
  auto it = std::find_if(cache.recent.begin(), cache.recent.end(), [&](const auto& e) { return e.first == key; });
  if (it != cache.recent.end()) {
    cache.recent.splice(cache.recent.begin(), cache.recent, it);
    return cache.recent.front().second;
  }
  auto g = std::make_shared<const Geometry>(geo::readLiteral(a.term.value, a.term.datatype));
  if (a.term.value.size() > kMaxKeptBytes) return g;
  cache.recent.emplace_front(std::move(key), g);
  if (cache.recent.size() > kKept) cache.recent.pop_back();
  return g;
}

double number(const Arg& a) {
  auto n = parseNumber(a.term);
  if (!n) throw GeoError("not a number");
  return n->toDouble();
}

// An IRI argument: an IRI, or an xsd:anyURI literal of it (as GeoSPARQL 1.0's examples write units).
const std::string& iriArgument(const Arg& a, const char* what) {
  if (a.term.kind == rdf::TermKind::Literal && a.term.datatype != xsd("anyURI")) throw GeoError(std::string("not ") + what);
  return a.term.value;
}

geo::Unit unit(const Arg& a) { return geo::unitOf(iriArgument(a, "a unit")); }

// A computed geometry, in the CRS and serialization of the argument it came from.
std::string resultTerm(const GEOSGeometry* g, const Geometry& from) {
  return geo::literalOf(g, from.crs, from.serialization);
}

std::string doubleTerm(double v) { return numberTerm(Number::floating(NumType::Double, v)); }

// One builtin per entry of a table of names: F<I>::call serves names[I].
template <template <size_t> class F, size_t... I>
void addEach(std::vector<Builtin>& out, std::index_sequence<I...>) {
  (out.push_back({F<I>::name(), &F<I>::call, F<I>::kArgs, F<I>::kArgs}), ...);
}

// The geof: IRI term of a local name, kept for the table's string_views.
std::string_view iriName(std::string_view local) {
  static std::vector<std::unique_ptr<std::string>> names;
  names.push_back(std::make_unique<std::string>(rdf::iriTerm(std::string(kGeof) + std::string(local))));
  return *names.back();
}

template <size_t I>
struct RelationFn {
  static constexpr size_t kArgs = 2;
  static std::string_view name() { return iriName(geo::relations()[I].name); }
  static Result call(const std::vector<Arg>& a, CallContext&) {
    return guarded([&] { return booleanTerm(geo::holds(geo::relations()[I], *geometry(a[0]), *geometry(a[1]))); });
  }
};

constexpr std::array<std::string_view, 4> kUnary = {"envelope", "convexHull", "boundary", "centroid"};
template <size_t I>
struct UnaryFn {
  static constexpr size_t kArgs = 1;
  static std::string_view name() { return iriName(kUnary[I]); }
  static Result call(const std::vector<Arg>& a, CallContext&) {
    return guarded([&] {
      auto held = geometry(a[0]);
      const Geometry& g = *held;
      return resultTerm(geo::unary(kUnary[I], g).get(), g);
    });
  }
};

constexpr std::array<std::string_view, 4> kBinary = {"intersection", "union", "difference", "symDifference"};
template <size_t I>
struct BinaryFn {
  static constexpr size_t kArgs = 2;
  static std::string_view name() { return iriName(kBinary[I]); }
  static Result call(const std::vector<Arg>& a, CallContext&) {
    return guarded([&] {
      auto held = geometry(a[0]);
      const Geometry& g = *held;
      return resultTerm(geo::binary(kBinary[I], g, *geometry(a[1])).get(), g);
    });
  }
};

constexpr std::array<std::pair<std::string_view, geo::Bound>, 4> kBounds = {
    {{"minX", geo::Bound::MinX}, {"maxX", geo::Bound::MaxX}, {"minY", geo::Bound::MinY}, {"maxY", geo::Bound::MaxY}}};
template <size_t I>
struct BoundFn {
  static constexpr size_t kArgs = 1;
  static std::string_view name() { return iriName(kBounds[I].first); }
  static Result call(const std::vector<Arg>& a, CallContext&) {
    return guarded([&] { return doubleTerm(geo::bound(*geometry(a[0]), kBounds[I].second)); });
  }
};

Result relate(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] {
    if (!a[2].term.isStringLiteral()) throw GeoError("not a pattern");
    return booleanTerm(geo::relatePattern(*geometry(a[0]), *geometry(a[1]), a[2].term.value));
  });
}

Result distance(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return doubleTerm(geo::distance(*geometry(a[0]), *geometry(a[1]), unit(a[2]))); });
}

Result buffer(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] {
    auto held = geometry(a[0]);
    const Geometry& g = *held;
    return resultTerm(geo::buffer(g, number(a[1]), unit(a[2])).get(), g);
  });
}

Result area(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return doubleTerm(geo::area(*geometry(a[0]), unit(a[1]))); });
}

Result length(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return doubleTerm(geo::length(*geometry(a[0]), unit(a[1]))); });
}

Result getSrid(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return rdf::literalTerm(geo::crsIri(geometry(a[0])->crs), {}, xsd("anyURI")); });
}

Result isEmpty(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return booleanTerm(geo::geos().GEOSisEmpty_r(geo::context(), geometry(a[0])->get()) == 1); });
}

Result isSimple(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return booleanTerm(geo::geos().GEOSisSimple_r(geo::context(), geometry(a[0])->get()) == 1); });
}

Result dimension(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return integerTerm(geo::dimension(*geometry(a[0]))); });
}

// Without M coordinates (GEOS 3.11 reads none) the spatial and coordinate
// dimensions are the same.
Result coordinateDimension(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return integerTerm(geo::coordinateDimension(*geometry(a[0]))); });
}

// GeoSPARQL 1.1: the geometry in the CRS an IRI names, in its own
// serialization (a GeoJSON literal has only CRS84, RFC 7946).
Result transform(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] {
    const geo::Crs crs = geo::crsOf(iriArgument(a[1], "a CRS IRI"));
    auto held = geometry(a[0]);
    const Geometry& g = *held;
    if (g.serialization == geo::Serialization::GeoJson && crs != geo::Crs::Crs84) {
      throw GeoError("a GeoJSON literal is in CRS84 only");
    }
    return geo::literalOf(g.get(), crs, g.serialization);
  });
}

Result is3D(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return booleanTerm(geo::coordinateDimension(*geometry(a[0])) == 3); });
}

// No geometry that reads has measures: a literal with them is refused
// (geo/geometry.h), so this is false or an error.
Result isMeasured(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] {
    geometry(a[0]);
    return booleanTerm(false);
  });
}

template <geo::Serialization S>
Result as(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] {
    auto held = geometry(a[0]);
    const Geometry& g = *held;
    return geo::literalOf(g.get(), g.crs, S);
  });
}

Result numGeometries(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] { return integerTerm(geo::geos().GEOSGetNumGeometries_r(geo::context(), geometry(a[0])->get())); });
}

// 1-based, as SQL/MM's ST_GeometryN.
Result geometryN(const std::vector<Arg>& a, CallContext&) {
  return guarded([&] {
    auto held = geometry(a[0]);
    const Geometry& g = *held;
    double n = number(a[1]);
    int count = geo::geos().GEOSGetNumGeometries_r(geo::context(), g.get());
    if (n != std::floor(n) || n < 1 || n > count) throw GeoError("geometryN: no such geometry");
    const GEOSGeometry* part = geo::geos().GEOSGetGeometryN_r(geo::context(), g.get(), static_cast<int>(n) - 1);
    return resultTerm(part, g);
  });
}

// A GeoSPARQL 1.1 aggregate: the group's geometries (unbound values and
// errors skipped, as COUNT skips them; any other term makes it an error),
// the result in the first one's CRS and serialization.
class GeoAggregator : public Aggregator {
 public:
  explicit GeoAggregator(std::string_view local) : local_(local) {}  // "aggUnion", ...
  void add(std::optional<std::string_view> value) override {
    if (!value || failed_) return;
    try {
      const TermValue term = parseTerm(*value);
      geometries_.push_back(geometry(Arg{*value, term}));
    } catch (const GeoError&) {
      failed_ = true;
    }
  }
  Result finish() override {
    if (failed_ || geometries_.empty()) return std::nullopt;
    return guarded([&] {
      std::vector<const GEOSGeometry*> parts;
      for (const auto& g : geometries_) parts.push_back(g->get());
      return resultTerm(geo::aggregate(local_, parts).get(), *geometries_.front());
    });
  }

 private:
  std::string local_;
  std::vector<std::shared_ptr<const Geometry>> geometries_;
  bool failed_ = false;
};

}  // namespace

std::unique_ptr<Aggregator> geoAggregator(std::string_view name) {
  if (!sparql::isExtensionAggregate(name)) return nullptr;
  return std::make_unique<GeoAggregator>(name.substr(1 + kGeof.size(), name.size() - kGeof.size() - 2));
}

std::vector<Builtin> geoBuiltins() {
  std::vector<Builtin> out;
  addEach<RelationFn>(out, std::make_index_sequence<geo::kRelationCount>{});
  addEach<UnaryFn>(out, std::make_index_sequence<kUnary.size()>{});
  addEach<BinaryFn>(out, std::make_index_sequence<kBinary.size()>{});
  addEach<BoundFn>(out, std::make_index_sequence<kBounds.size()>{});
  for (auto [local, fn, args] : std::initializer_list<std::tuple<std::string_view, BuiltinFn, size_t>>{
           {"relate", relate, 3},
           {"distance", distance, 3},
           {"buffer", buffer, 3},
           {"area", area, 2},
           {"length", length, 2},
           {"getSRID", getSrid, 1},
           {"isEmpty", isEmpty, 1},
           {"isSimple", isSimple, 1},
           {"dimension", dimension, 1},
           {"coordinateDimension", coordinateDimension, 1},
           {"spatialDimension", coordinateDimension, 1},
           {"is3D", is3D, 1},
           {"isMeasured", isMeasured, 1},
           {"transform", transform, 2},
           {"asWKT", as<geo::Serialization::Wkt>, 1},
           {"asGML", as<geo::Serialization::Gml>, 1},
           {"asGeoJSON", as<geo::Serialization::GeoJson>, 1},
           {"numGeometries", numGeometries, 1},
           {"geometryN", geometryN, 2}}) {
    out.push_back({iriName(local), fn, args, args});
  }
  return out;
}

}  // namespace gsparql::engine::expr
