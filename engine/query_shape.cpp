#include "engine/query_shape.h"

#include "gsparql/error.h"

namespace gsparql::engine {
namespace {

using sparql::Op;

const char* featureName(Op::Kind kind) {
  switch (kind) {
    case Op::Kind::Bgp: return "a second basic graph pattern";
    case Op::Kind::Path: return "property path";
    case Op::Kind::Join: return "a join of group graph patterns";
    case Op::Kind::LeftJoin: return "OPTIONAL";
    case Op::Kind::Union: return "UNION";
    case Op::Kind::Minus: return "MINUS";
    case Op::Kind::Filter: return "FILTER";
    case Op::Kind::Extend: return "BIND or a SELECT expression";
    case Op::Kind::Graph: return "GRAPH";
    case Op::Kind::Service: return "SERVICE";
    case Op::Kind::Values: return "VALUES";
    case Op::Kind::Group: return "GROUP BY or an aggregate other than COUNT";
    case Op::Kind::OrderBy: return "ORDER BY here";
    case Op::Kind::Project: return "a sub-query";
    case Op::Kind::Distinct: return "DISTINCT here";
    case Op::Kind::Reduced: return "REDUCED here";
    case Op::Kind::Slice: return "LIMIT or OFFSET here";
  }
  return "this construct";
}

[[noreturn]] void unsupported(const std::string& what, sparql::Position pos) {
  throw QueryError(what + " at " + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
                       " is not supported yet",
                   pos.line, pos.column);
}

[[noreturn]] void unsupported(const Op& op) { unsupported(featureName(op.kind), op.pos); }

const Op& only(const Op& op) { return *op.children.at(0); }

std::string plainVariable(const sparql::Expr& e, const char* role) {
  if (e.kind != sparql::Expr::Kind::Term || e.term.kind != sparql::Term::Kind::Variable) {
    unsupported(std::string("an expression in ") + role, e.pos);
  }
  return e.term.value;
}

// Project(Extend(Group(BGP), ?c := ?agg)) with one COUNT and no GROUP BY keys.
const Op* readCount(const Op* op, QueryShape& shape) {
  if (op->kind != Op::Kind::Extend || only(*op).kind != Op::Kind::Group) return op;
  const Op& group = only(*op);
  if (!group.bindings.empty() || group.aggregates.size() != 1 || op->bindings.size() != 1) unsupported(group);
  const sparql::Expr& aggregate = group.aggregates[0].expr;
  if (aggregate.kind != sparql::Expr::Kind::Aggregate || aggregate.name != "COUNT") unsupported(group);
  const sparql::Expr& renamed = op->bindings[0].expr;
  if (renamed.kind != sparql::Expr::Kind::Term || renamed.term.value != group.aggregates[0].var) unsupported(*op);
  CountAggregate count{op->bindings[0].var, std::nullopt, aggregate.distinct};
  if (!aggregate.star) count.argument = plainVariable(aggregate.args.at(0), "COUNT");
  shape.count = count;
  return &only(group);
}

}  // namespace

QueryShape shapeOf(const sparql::Query& query) {
  QueryShape shape;
  if (query.form == sparql::Query::Form::Construct) unsupported("CONSTRUCT", query.pos);
  if (query.form == sparql::Query::Form::Describe) unsupported("DESCRIBE", query.pos);
  if (!query.fromGraphs.empty() || !query.fromNamedGraphs.empty()) unsupported("FROM", query.pos);
  shape.ask = query.form == sparql::Query::Form::Ask;
  const Op* op = query.pattern.get();
  if (op->kind == Op::Kind::Slice) {
    shape.offset = op->offset;
    shape.limit = op->limit;
    op = &only(*op);
  }
  if (op->kind == Op::Kind::Distinct || op->kind == Op::Kind::Reduced) {
    shape.distinct = true;
    op = &only(*op);
  }
  if (op->kind == Op::Kind::Project) {
    shape.projection = op->vars;
    op = &only(*op);
  }
  if (op->kind == Op::Kind::OrderBy) {
    for (const auto& key : op->order) shape.order.push_back({plainVariable(key.expr, "ORDER BY"), key.descending});
    op = &only(*op);
  }
  op = readCount(op, shape);
  if (op->kind != Op::Kind::Bgp) unsupported(*op);
  shape.triples = op->triples;
  return shape;
}

}  // namespace gsparql::engine
