#pragma once
// The plans of BGPs kept between the queries of one snapshot: planning (the
// walks through the data, the dynamic programming) took a fifth of a served
// query's time, and a server's clients send the same BGPs again and again.
// A plan depends on the bound BGP (its structure and constant ids), what its
// rows are for, the snapshot and the optimizer's setup; the walks are
// seeded (optimizer.h), so a kept plan is the plan planning would make again
// on the snapshot that made it (and a good one on its successors, below).
#include <memory>
#include <string>

#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/recent_cache.h"

namespace gsparql::engine {

// One per snapshot (a Database), or shared by the snapshots of one
// generation that update batches make one from another: ids mean the same
// terms there, a plan is valid whatever the data (bgp/plan.h), and a
// delta's statistics drift little from its generation's (a large delta is
// merged into a new generation, which starts with none kept).
using BgpPlanCache = RecentCache<BgpPlan>;
inline constexpr size_t kCachedBgpPlans = 4096;

// `orderer`, answering from `cache` where it holds the plan; `setup` names
// the orderer's configuration, part of every key (one cache serves orderers
// of several setups).
std::unique_ptr<JoinOrderer> withPlanCache(std::unique_ptr<JoinOrderer> orderer, BgpPlanCache& cache,
                                           std::string setup);

}  // namespace gsparql::engine
