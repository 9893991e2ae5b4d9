#pragma once
// The hash of a row's ids (or of a join key), for the hash indexes of joins
// and DISTINCT: a multiply-xorshift mix whose top bits pick the bucket.
#include <cstdint>
#include <span>

#include "engine/value/value_id.h"

namespace gsparql::engine {

inline uint64_t hashIds(std::span<const ValueId> ids) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (ValueId v : ids) h = (h ^ v) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

}  // namespace gsparql::engine
