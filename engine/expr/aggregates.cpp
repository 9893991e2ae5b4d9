// Set functions (section 18.5). COUNT, MIN, MAX, SAMPLE and GROUP_CONCAT skip
// unbound and erroneous values (as Jena does); SUM and AVG add with
// op:numeric-add, so an error among their values, or a value they cannot
// take (a non-number), makes the aggregate an error, as does a non-literal
// in GROUP_CONCAT.
#include <unordered_set>

#include "engine/expr/builtins.h"
#include "engine/expr/expression.h"
#include "engine/expr/numeric.h"
#include "engine/expr/term_order.h"

namespace gsparql::engine::expr {
namespace {

class Count : public Aggregator {
 public:
  void add(std::optional<std::string_view> value) override { count_ += value.has_value(); }
  Result finish() override { return integerTerm(count_); }

 private:
  long long count_ = 0;
};

// SUM and AVG. A group's values often come in runs of one term (rows
// ordered by the argument's variable): a run's term is parsed once.
class Sum : public Aggregator {
 public:
  explicit Sum(bool average) : average_(average) {}
  void add(std::optional<std::string_view> value) override {
    if (!sum_) return;
    if (!value || *value != lastTerm_) {
      last_ = value ? parseNumber(parseTerm(*value)) : std::nullopt;
      lastTerm_ = value.value_or("");
    }
    sum_ = last_ ? arithmetic('+', *sum_, *last_) : std::nullopt;
    ++count_;
  }
  Result finish() override {
    if (!sum_) return std::nullopt;
    if (!average_ || count_ == 0) return numberTerm(*sum_);
    auto mean = arithmetic('/', *sum_, Number::integer(count_));
    if (!mean) return std::nullopt;
    return numberTerm(*mean);
  }

 private:
  bool average_;
  std::optional<Number> sum_ = Number::integer(0);
  long long count_ = 0;
  std::string lastTerm_;        // the last value added ("" after an error)
  std::optional<Number> last_;  // its number
};

// MIN and MAX in the ORDER BY order.
class Extreme : public Aggregator {
 public:
  explicit Extreme(bool max) : sign_(max ? 1 : -1) {}
  // Values come in runs of one term: the best again changes nothing, and
  // the term that last lost loses again, the order being total (a better
  // best only widens the gap), so neither is compared.
  void add(std::optional<std::string_view> value) override {
    if (!value || *value == lastLoser_) return;
    if (!best_ || (*value != *best_ && sign_ * compareTerms(*value, *best_) > 0)) {
      best_ = std::string(*value);
    } else {
      lastLoser_ = *value;
    }
  }
  Result finish() override { return best_; }

 private:
  int sign_;
  Result best_;
  std::string lastLoser_;  // "" (no term) before any lost
};

class Sample : public Aggregator {
 public:
  void add(std::optional<std::string_view> value) override {
    if (!sample_ && value) sample_ = std::string(*value);
  }
  Result finish() override { return sample_; }

 private:
  Result sample_;
};

class GroupConcat : public Aggregator {
 public:
  explicit GroupConcat(std::string separator) : separator_(std::move(separator)) {}
  void add(std::optional<std::string_view> value) override {
    if (!value || !text_) return;
    TermValue t = parseTerm(*value);
    if (!t.isLiteral()) {
      text_.reset();
      return;
    }
    if (!first_) *text_ += separator_;
    *text_ += t.value;
    first_ = false;
  }
  Result finish() override {
    if (!text_) return std::nullopt;
    return stringTerm(*text_);
  }

 private:
  std::string separator_;
  std::optional<std::string> text_ = std::string();
  bool first_ = true;
};

// DISTINCT: each term once (language tags compared ignoring case).
class Distinct : public Aggregator {
 public:
  explicit Distinct(std::unique_ptr<Aggregator> inner) : inner_(std::move(inner)) {}
  void add(std::optional<std::string_view> value) override {
    if (!value) return inner_->add(value);
    if (seen_.insert(rdf::termKey(*value)).second) inner_->add(value);
  }
  Result finish() override { return inner_->finish(); }

 private:
  std::unique_ptr<Aggregator> inner_;
  std::unordered_set<std::string> seen_;
};

}  // namespace

std::unique_ptr<Aggregator> makeAggregatorOfDistinctValues(const sparql::Expr& aggregate) {
  const std::string& name = aggregate.name;
  if (auto geo = geoAggregator(name)) return geo;
  if (name == "COUNT") return std::make_unique<Count>();
  if (name == "SUM" || name == "AVG") return std::make_unique<Sum>(name == "AVG");
  if (name == "MIN" || name == "MAX") return std::make_unique<Extreme>(name == "MAX");
  if (name == "GROUP_CONCAT") return std::make_unique<GroupConcat>(aggregate.separator.value_or(" "));
  return std::make_unique<Sample>();
}

std::unique_ptr<Aggregator> makeAggregator(const sparql::Expr& aggregate) {
  auto plain = makeAggregatorOfDistinctValues(aggregate);
  if (!aggregate.distinct) return plain;
  return std::make_unique<Distinct>(std::move(plain));
}

}  // namespace gsparql::engine::expr
