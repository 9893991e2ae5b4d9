#include "engine/optimizer/plan_cache.h"

#include <optional>
#include <type_traits>

namespace gsparql::engine {
namespace {

// A BGP limited to many constants (a large VALUES) is rarely sent again
// with the same ones, and its key would be long: planned every time.
constexpr size_t kMostKeyedConstants = 256;

template <typename T>
void append(std::string& key, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Everything of the BGP that planning reads, and nothing else (variable
// names are not: the plan speaks of vertex numbers); nullopt where the key
// would be too long.
std::optional<std::string> keyOf(const std::string& setup, const BoundBgp& bgp, PlanUse use) {
  std::string key = setup;
  append(key, use);
  append(key, bgp.graph);
  append(key, bgp.vertices.size());
  size_t constants = 0;
  for (const BoundVertex& v : bgp.vertices) {
    constants += v.constants.size();
    if (constants > kMostKeyedConstants) return std::nullopt;
    append(key, v.isVariable);
    append(key, v.isBlank);
    append(key, v.id);
    append(key, v.constants.size());
    for (uint32_t c : v.constants) append(key, c);
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
    const std::optional<std::string> key = keyOf(setup_, bgp, use);
    if (!key) return orderer_->plan(bgp, catalog, use);
    if (auto kept = cache_.find(*key)) return *kept;
    return *cache_.insert(*key, std::make_shared<const BgpPlan>(orderer_->plan(bgp, catalog, use)));
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
