#pragma once
// SPARQL 1.1 expressions (section 17): operators, the function library,
// effective boolean values and error propagation. Values are RDF terms in the
// rdf/term.h form; an evaluation error is an empty Result. The operators that
// evaluate expressions (FILTER, BIND, SELECT expressions, ORDER BY, GROUP BY,
// aggregates, OPTIONAL's condition) turn ids into terms through the solution
// they pass in, so this module knows nothing of storage or ids.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expr/expression_memo.h"
#include "parser/algebra.h"

namespace gsparql::engine::expr {

// A term, or nullopt for an error (type error, unbound variable, ...).
using Result = std::optional<std::string>;

// What an expression sees of the solution it is evaluated on.
class Solution {
 public:
  virtual ~Solution() = default;
  // The term bound to the variable in `slot` (an index into the variables the
  // expression was compiled with), nullopt when unbound; it stays valid while
  // an expression is evaluated on this solution (functions read it in place).
  virtual std::optional<std::string_view> term(size_t slot) const = 0;
  // Whether `slot` is bound (BOUND, COALESCE's pass-through), without
  // reading its term where a solution can tell so.
  virtual bool bound(size_t slot) const { return term(slot).has_value(); }
  // An identity of the term in `slot`: equal keys are the same term (or
  // both unbound) for as long as one Environment evaluates on solutions of
  // this kind. Parts of expressions that read one variable are evaluated once
  // per key (ExpressionMemo); nullopt: no key, evaluated on every solution.
  virtual std::optional<uint64_t> key(size_t slot) const {
    (void)slot;
    return std::nullopt;
  }
};

// What evaluation needs from the query around it.
struct Environment {
  // EXISTS { pattern } for the current solution (substitution semantics,
  // section 18.6); set by the planner when the expression contains EXISTS.
  std::function<bool(const sparql::Op& pattern, const Solution& solution)> exists;
  // A blank node new to the data and the query (BNODE()).
  std::function<std::string()> freshBlankNode;
  // BNODE(str): the blank node of `label` in the current solution mapping,
  // the same term for the same label until the caller moves to the next
  // solution (across all expressions evaluated on it, e.g. several SELECT
  // expressions), a new one (as freshBlankNode) for a label not seen on this
  // solution. When unset, labels are shared within one evaluate() call only.
  std::function<std::string(std::string_view label)> blankNodeFor;
  // NOW(): one xsd:dateTime term for the whole query.
  std::string now;
  // The query's BASE (IRI() resolves relative IRIs against it); may be empty.
  std::string baseIri;
  // What the expressions evaluated with this environment remember per term.
  ExpressionMemo memo;
};

// A compiled expression. Its largest parts that read the solution through
// one variable and call nothing impure (RAND, NOW, UUID, STRUUID, BNODE,
// IRI, EXISTS) are memoized: evaluated once per key of that variable's term
// (Solution::key) and remembered in the Environment's memo, errors
// included, so a FILTER, BIND or aggregate argument over a column of few
// distinct terms costs a lookup a row.
class Expression {
 public:
  // Where the value of a whole expression that depends on one variable is
  // kept by key: in the Environment's memo, or by the caller alone (Filter
  // and Extend keep their decision or id by key: not the term as well).
  enum class KeptBy { Memo, Caller };

  // `variables`: the names (without '?') the solution's slots hold. Variables
  // of the expression not among them are unbound.
  Expression(const sparql::Expr& expr, const std::vector<std::string>& variables, KeptBy keptBy = KeptBy::Memo);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  Result evaluate(const Solution& solution, Environment& environment) const;
  // FILTER semantics: the effective boolean value, false on an error.
  bool holds(const Solution& solution, Environment& environment) const;
  // The slots whose terms the expression reads (EXISTS patterns included;
  // not a variable only BOUND tests).
  const std::vector<size_t>& slotsRead() const;
  // Where the value is a term of the solution unchanged (a bare variable,
  // or the first bound one of a COALESCE of variables), the slot holding
  // it, so that a caller keeps its id rather than look the text up again
  // (for a term of the store, a dictionary lookup: 4.4 us a row); nullopt
  // where the value must be computed (evaluate).
  std::optional<size_t> slotOfValue(const Solution& solution) const;
  // Where the value is a pure function of one variable's term, that
  // variable's slot: a caller may keep what it makes of the value (an id) by
  // the key of that term.
  std::optional<size_t> keySlot() const { return keySlot_; }
  // Where there is a key slot, whether its term is never read, only tested
  // by BOUND (IF(BOUND(?e), "yes", "no")): the value then depends only on
  // whether the slot is bound, however many terms it holds.
  bool testsOnlyBoundness() const { return keySlot_ && slots_.empty(); }
  // Its nodes after compilation (constants folded): what one evaluation
  // weighs against the next check for a stop (StopCheck).
  size_t cost() const { return cost_; }
  // Whether threads may evaluate it at once, each with its own Environment:
  // nothing in it calls back into the query (EXISTS plans a pattern, BNODE
  // numbers a blank node in the query's codec).
  bool evaluatesConcurrently() const { return concurrent_; }

 private:
  struct Node;
  std::unique_ptr<Node> root_;
  std::vector<size_t> slots_;
  std::optional<size_t> keySlot_;
  size_t cost_ = 1;
  bool concurrent_ = true;
};

// Effective boolean value (section 17.2.2); nullopt for a type error.
std::optional<bool> effectiveBooleanValue(std::string_view term);

// One aggregate (section 18.5) over the values of one group, DISTINCT and
// GROUP_CONCAT's separator included. COUNT(*) is fed once per solution with
// any term; an unbound or erroneous argument is fed as nullopt.
class Aggregator {
 public:
  virtual ~Aggregator() = default;
  // A value of a solution (nullopt: unbound or an error), read during the
  // call: an aggregator copies what it keeps.
  virtual void add(std::optional<std::string_view> value) = 0;
  virtual Result finish() = 0;  // nullopt: the aggregate is an error (unbound)
};
// `aggregate.kind` is Expr::Kind::Aggregate.
std::unique_ptr<Aggregator> makeAggregator(const sparql::Expr& aggregate);
// The same without DISTINCT, for a caller that passes each value once.
std::unique_ptr<Aggregator> makeAggregatorOfDistinctValues(const sparql::Expr& aggregate);

}  // namespace gsparql::engine::expr
