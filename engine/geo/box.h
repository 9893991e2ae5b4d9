#pragma once
// An envelope in CRS84 order (x = longitude, y = latitude), as plain numbers:
// what the layers above keep of a geometry to order or prune by, without
// seeing GEOS.
#include <optional>
#include <string_view>

namespace gsparql::engine::geo {

struct Box {
  double minX = 0, minY = 0, maxX = 0, maxY = 0;
};

// The envelope of a term's geometry (readTerm); nullopt where the term is
// no geometry or an empty one.
std::optional<Box> boxOfTerm(std::string_view term);

}  // namespace gsparql::engine::geo
