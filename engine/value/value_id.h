#pragma once
// The value of one cell of an operator's table: a 64-bit id whose top byte
// says where the term lives. Every term has exactly one id within a query
// (a vertex id if the term is a subject or object of the data, else a
// predicate id if it is a predicate, else an index into the query's local
// vocabulary), so equal ids mean the same RDF term: joins, DISTINCT and
// grouping compare ids and never decode.
#include <cstdint>

namespace gsparql::engine {

using ValueId = uint64_t;

enum class ValueSpace : uint8_t {
  Undefined = 0,  // an unbound variable
  Vertex = 1,     // dictionary vertex id
  Predicate = 2,  // dictionary predicate id of a term that is no vertex
  Local = 3,      // a term made by the query (constants absent from the data, computed values)
};

inline constexpr ValueId kUndefined = 0;

constexpr ValueId makeValueId(ValueSpace space, uint32_t index) {
  return (static_cast<ValueId>(space) << 56) | index;
}
constexpr ValueSpace spaceOf(ValueId id) { return static_cast<ValueSpace>(id >> 56); }
constexpr uint32_t indexOf(ValueId id) { return static_cast<uint32_t>(id); }
constexpr bool isBound(ValueId id) { return id != kUndefined; }

}  // namespace gsparql::engine
