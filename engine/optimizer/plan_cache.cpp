#include "engine/optimizer/plan_cache.h"

#include <functional>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gsparql::engine {
namespace {

// A vertex limited to more constants than this (a large VALUES, the
// literals nearest a point) is keyed by their number and a hash of them,
// not by the list: a key's length stays bounded. Two lists of one hash
// share a plan, which is valid for either (bgp/plan.h): a plan is made for
// the BGP's structure, the constants only weigh its choices.
constexpr size_t kMostListedConstants = 64;

template <typename T>
void append(std::string& key, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void appendConstants(std::string& key, const std::vector<uint32_t>& constants) {
  append(key, constants.size());
  if (constants.size() > kMostListedConstants) {
    const std::string_view bytes(reinterpret_cast<const char*>(constants.data()), constants.size() * sizeof(uint32_t));
    append(key, std::hash<std::string_view>{}(bytes));
    return;
  }
  for (uint32_t c : constants) append(key, c);
}

// Everything of the BGP that planning reads, and nothing else (variable
// names are not: the plan speaks of vertex numbers).
std::string keyOf(const std::string& setup, const BoundBgp& bgp, PlanUse use) {
  std::string key = setup;
  append(key, use);
  append(key, bgp.graph);
  append(key, bgp.vertices.size());
  for (const BoundVertex& v : bgp.vertices) {
    append(key, v.isVariable);
    append(key, v.isBlank);
    append(key, v.id);
    appendConstants(key, v.constants);
  }
  append(key, bgp.edges.size());
  for (const BoundEdge& e : bgp.edges) {
    append(key, e.from);
    append(key, e.to);
    append(key, e.predicateIsVariable);
    append(key, e.predicate);
    append(key, e.predicateVertex.value_or(kNoId));
  }
  append(key, bgp.predicateVariables.size());
  append(key, bgp.components.size());
  for (const auto& component : bgp.components) {
    append(key, component.size());
    for (uint32_t v : component) append(key, v);
  }
  return key;
}

class CachingOrderer final : public JoinOrderer {
 public:
  CachingOrderer(std::unique_ptr<JoinOrderer> orderer, BgpPlanCache& cache, std::string setup)
      : orderer_(std::move(orderer)), cache_(cache), setup_(std::move(setup)) {
    setOperatorCosts(orderer_->operatorCosts());
  }

 private:
  BgpPlan planFor(const BoundBgp& bgp, const Catalog& catalog, PlanUse use) const override {
    const std::string key = keyOf(setup_, bgp, use);
    if (auto kept = cache_.find(key)) return *kept;
    return *cache_.insert(key, std::make_shared<const BgpPlan>(orderer_->plan(bgp, catalog, use)));
  }

  std::unique_ptr<JoinOrderer> orderer_;
  BgpPlanCache& cache_;
  std::string setup_;
};

}  // namespace

std::unique_ptr<JoinOrderer> withPlanCache(std::unique_ptr<JoinOrderer> orderer, BgpPlanCache& cache,
                                           std::string setup) {
  return std::make_unique<CachingOrderer>(std::move(orderer), cache, std::move(setup));
}

}  // namespace gsparql::engine
