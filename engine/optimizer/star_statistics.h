#pragma once
// What the characteristic sets (storage/characteristic_sets.h) say about
// stars: the rows of a subject with some predicates counted (one row per
// combination of their objects) and others only required to exist, summed
// over the sets that have them all (RDF-3X's estimate). It knows what
// independence does not: that subjects with one predicate seldom or always
// have another.
#include <cstdint>
#include <vector>

#include "storage/catalog.h"

namespace gsparql::engine {

class StarStatistics {
 public:
  explicit StarStatistics(const Catalog& catalog) : sets_(&catalog.characteristicSets) {}

  bool available() const { return !sets_->empty(); }
  // Sum over the sets holding every predicate of `required` and `counted`
  // of their subjects times, per counted predicate, its triples per subject.
  double rows(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const;

 private:
  const std::vector<CharacteristicSet>* sets_;
};

}  // namespace gsparql::engine
