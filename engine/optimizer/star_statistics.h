#pragma once
// What the characteristic sets (storage/characteristic_sets.h) say about
// stars: the rows of a subject with some predicates counted (one row per
// combination of their objects) and others only required to exist, summed
// over the sets that have them all (RDF-3X's estimate). It knows what
// independence does not: that subjects with one predicate seldom or always
// have another.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "storage/catalog.h"

namespace gsparql::engine {

class StarStatistics {
 public:
  explicit StarStatistics(const Catalog& catalog)
      : catalog_(&catalog), memo_(std::make_shared<std::map<std::vector<uint32_t>, double>>()) {}

  bool available() const { return !catalog_->characteristicSets.empty(); }
  // Sum over the sets holding every predicate of `required` and `counted`
  // of their subjects times, per counted predicate, its triples per subject.
  // Remembered: the orderers ask for the same stars again and again while
  // they try steps (copies share what is remembered).
  double rows(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const;

 private:
  double sum(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const;
  // The same sum read set by set: for a catalog without its index.
  double scannedSum(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const;

  const Catalog* catalog_;
  // The answers so far, by the sorted required predicates, a separator and the sorted counted ones.
  std::shared_ptr<std::map<std::vector<uint32_t>, double>> memo_;
};

}  // namespace gsparql::engine
