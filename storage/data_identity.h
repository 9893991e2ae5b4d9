#pragma once
// Process-unique numbers naming data held in memory: a mapped adjacency
// file, a predicate's adjacency rebuilt from a delta, a snapshot's content.
// They key caches that outlive what they copy (the GPU's adjacency cache,
// which the snapshots a process opens one after another share:
// api/shared_gpu_executors.h). A path would not do: a database deleted and
// loaded again at the same place names other data the same way; a number is
// never given twice.
#include <cstdint>

namespace gsparql {

// Never 0.
uint64_t newDataIdentity();

}  // namespace gsparql
