#include "isomorphism.h"

#include <algorithm>
#include <map>
#include <set>

#include "rdf/term.h"

namespace gsparql::conformance {
namespace {

bool isBlankTerm(const std::string& term) { return term.starts_with("_:"); }

using Atoms = std::vector<std::string>;

}  // namespace

void appendAtoms(Atoms& atoms, std::string_view term) {
  rdf::TripleTermParts parts;
  if (!rdf::splitTripleTerm(term, &parts)) {
    atoms.emplace_back(term);
    return;
  }
  atoms.emplace_back("<<(");
  for (std::string_view part : {parts.subject, parts.predicate, parts.object}) appendAtoms(atoms, part);
  atoms.emplace_back(")>>");
}

std::string describe(const Quad& q) {
  return q[0] + " " + q[1] + " " + q[2] + (q[3].empty() ? "" : " " + q[3]) + " .";
}

namespace {

class Isomorphism {
 public:
  Isomorphism(const std::vector<Quad>& expected, const std::vector<Quad>& actual) {
    split(expected, groundExpected_, blankExpected_);
    split(actual, groundActual_, blankActual_);
  }

  std::optional<std::string> difference() {
    for (const Quad& q : groundExpected_) {
      if (!groundActual_.count(q)) return "missing " + describe(q);
    }
    for (const Quad& q : groundActual_) {
      if (!groundExpected_.count(q)) return "unexpected " + describe(q);
    }
    if (blankExpected_.size() != blankActual_.size()) {
      return std::to_string(blankExpected_.size()) + " statements with blank nodes expected, " +
             std::to_string(blankActual_.size()) + " read";
    }
    used_.assign(blankActual_.size(), false);
    if (!match(0)) return steps_ > kMaxSteps ? "blank-node matching gave up" : "no blank-node renaming makes them equal";
    return std::nullopt;
  }

 private:
  static constexpr size_t kMaxSteps = 5'000'000;

  static void split(const std::vector<Quad>& quads, std::set<Quad>& ground, std::vector<Atoms>& blank) {
    for (const Quad& q : quads) {
      Atoms atoms;
      for (const std::string& term : q) appendAtoms(atoms, term);
      if (std::any_of(atoms.begin(), atoms.end(), isBlankTerm)) {
        blank.push_back(std::move(atoms));
      } else {
        ground.insert(q);
      }
    }
  }

  bool match(size_t next) {
    if (next == blankExpected_.size()) return true;
    if (++steps_ > kMaxSteps) return false;
    const Atoms& want = blankExpected_[next];
    for (size_t i = 0; i < blankActual_.size(); ++i) {
      if (used_[i]) continue;
      std::vector<std::string> added;
      if (bind(want, blankActual_[i], added)) {
        used_[i] = true;
        if (match(next + 1)) return true;
        used_[i] = false;
      }
      for (const std::string& b : added) {
        reverse_.erase(forward_[b]);
        forward_.erase(b);
      }
    }
    return false;
  }

  bool bind(const Atoms& want, const Atoms& have, std::vector<std::string>& added) {
    if (want.size() != have.size()) return false;
    for (size_t k = 0; k < want.size(); ++k) {
      if (!isBlankTerm(want[k]) || !isBlankTerm(have[k])) {
        if (want[k] != have[k]) return false;
        continue;
      }
      auto f = forward_.find(want[k]);
      if (f != forward_.end()) {
        if (f->second != have[k]) return false;
        continue;
      }
      if (reverse_.count(have[k])) return false;
      forward_[want[k]] = have[k];
      reverse_[have[k]] = want[k];
      added.push_back(want[k]);
    }
    return true;
  }

  std::set<Quad> groundExpected_, groundActual_;
  std::vector<Atoms> blankExpected_, blankActual_;
  std::vector<bool> used_;
  std::map<std::string, std::string> forward_, reverse_;
  size_t steps_ = 0;
};

}  // namespace

std::optional<std::string> datasetDifference(const std::vector<Quad>& expected, const std::vector<Quad>& actual) {
  return Isomorphism(expected, actual).difference();
}

}  // namespace gsparql::conformance
