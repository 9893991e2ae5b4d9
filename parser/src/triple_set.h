#pragma once
#include <set>
#include <tuple>

#include "parser/algebra.h"

namespace gsparql::sparql {

// The triple patterns seen so far, whatever their position: a BGP is a set,
// and a lookup here (rather than a scan of the patterns kept) keeps reading
// a BGP of n patterns O(n log n).
class TripleSet {
 public:
  // True when `t` was not seen before.
  bool insert(const TriplePattern& t) { return seen_.emplace(t.subject, t.predicate, t.object).second; }

 private:
  std::set<std::tuple<Term, Term, Term>> seen_;
};

}  // namespace gsparql::sparql
