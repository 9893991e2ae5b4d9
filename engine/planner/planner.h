#pragma once
// Turns a logical plan's algebra tree into a tree of physical operators.
// Each algebra operator becomes its physical operator; on the way the
// planner orders each BGP's joins (JoinOrderer), passes down which variables
// the operators above read (so executors return only those columns), puts
// equality filters, IN lists and VALUES with constants into the BGP they
// restrict, and builds the smaller side of a join.
#include <optional>
#include <set>
#include <string>

#include "engine/join_orderer.h"
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

// Variables the operators above read; nullopt: all of them.
using Required = std::optional<std::set<std::string>>;

class Planner {
 public:
  Planner(const GraphStore& store, const JoinOrderer& orderer) : store_(store), orderer_(orderer) {}

  OperatorPtr plan(const sparql::Op& op, const Required& required) const;

 private:
  // Constants that equality filters fix for variables of the BGP below them.
  using Substitution = std::vector<std::pair<std::string, std::string>>;

  OperatorPtr planBgp(const sparql::Op& op, const Required& required, const Substitution& fixed) const;
  // The union of the BGP with `variable` fixed to each constant in turn
  // (FILTER(?x IN (...)), or a join with VALUES for ?x).
  OperatorPtr planBgpPerConstant(const sparql::Op& op, const Required& required, const Substitution& fixed,
                                 const std::string& variable, const std::vector<std::string>& constants) const;
  OperatorPtr joinWithValuesInBgp(const sparql::Op& bgp, const sparql::Op& values, const Required& required) const;
  OperatorPtr planFilter(const sparql::Op& op, const Required& required) const;
  OperatorPtr planJoin(const sparql::Op& op, const Required& required) const;
  OperatorPtr planLeftJoin(const sparql::Op& op, const Required& required) const;
  OperatorPtr planMinus(const sparql::Op& op, const Required& required) const;
  OperatorPtr planExtend(const sparql::Op& op, const Required& required) const;
  OperatorPtr planGroup(const sparql::Op& op) const;

  const GraphStore& store_;
  const JoinOrderer& orderer_;
};

// The text of an expression for EXPLAIN (SPARQL syntax).
std::string expressionText(const sparql::Expr& e);

}  // namespace gsparql::engine
