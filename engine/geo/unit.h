#pragma once
// The units of measure of GeoSPARQL's distances, buffers, areas and lengths
// (docs/geosparql.md#units): apart from operations.h so that the layers
// above can name one without seeing GEOS.
#include <numbers>
#include <string_view>

namespace gsparql::engine::geo {

enum class Unit { Metre, Degree, Radian };
inline constexpr double kRadian = std::numbers::pi / 180.0;  // radians in a degree
inline constexpr std::string_view kUomNs = "http://www.opengis.net/def/uom/OGC/1.0/";
Unit unitOf(std::string_view iri);  // a uom: IRI; throws GeoError for others

}  // namespace gsparql::engine::geo
