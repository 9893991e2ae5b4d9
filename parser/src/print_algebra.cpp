// The algebra as an indented S-expression, in the style of the
// recommendation's examples and of Jena's SSE; `gsparql parse` prints it.
#include "parser/print.h"

#include <algorithm>

namespace gsparql::sparql {
namespace {

const char* name(Op::Kind k) {
  switch (k) {
    case Op::Kind::Bgp: return "bgp";
    case Op::Kind::Path: return "path";
    case Op::Kind::Join: return "join";
    case Op::Kind::LeftJoin: return "leftjoin";
    case Op::Kind::Union: return "union";
    case Op::Kind::Minus: return "minus";
    case Op::Kind::Filter: return "filter";
    case Op::Kind::Extend: return "extend";
    case Op::Kind::Graph: return "graph";
    case Op::Kind::Service: return "service";
    case Op::Kind::Values: return "table";
    case Op::Kind::Group: return "group";
    case Op::Kind::OrderBy: return "order";
    case Op::Kind::Project: return "project";
    case Op::Kind::Distinct: return "distinct";
    case Op::Kind::Reduced: return "reduced";
    case Op::Kind::Slice: return "slice";
  }
  return "?";
}

std::string bindings(const std::vector<Binding>& bs) {
  std::string out = "(";
  for (std::size_t i = 0; i < bs.size(); ++i) {
    if (i) out += " ";
    out += "(" + (bs[i].var.empty() ? std::string("_") : "?" + bs[i].var) + " " + toSparql(bs[i].expr) + ")";
  }
  return out + ")";
}

std::string exprs(const std::vector<Expr>& es) {
  std::string out = "(";
  for (std::size_t i = 0; i < es.size(); ++i) out += (i ? " " : "") + toSparql(es[i]);
  return out + ")";
}

// The operator's own arguments (everything except its children).
std::string arguments(const Op& op) {
  switch (op.kind) {
    case Op::Kind::Path:
      return " " + toSparql(op.subject) + " " + toSparql(op.path) + " " + toSparql(op.object);
    case Op::Kind::LeftJoin:
      return op.exprs.empty() ? "" : " " + exprs(op.exprs);
    case Op::Kind::Filter:
      return " " + exprs(op.exprs);
    case Op::Kind::Extend:
      return " " + bindings(op.bindings);
    case Op::Kind::Graph:
      return " " + toSparql(op.graph);
    case Op::Kind::Service:
      return std::string(op.silent ? " silent " : " ") + toSparql(op.graph);
    case Op::Kind::Group:
      return " " + bindings(op.bindings) + " " + bindings(op.aggregates);
    case Op::Kind::OrderBy: {
      std::string out = " (";
      for (std::size_t i = 0; i < op.order.size(); ++i) {
        out += (i ? " " : "") + std::string(op.order[i].descending ? "(desc " : "(asc ") + toSparql(op.order[i].expr) + ")";
      }
      return out + ")";
    }
    case Op::Kind::Project: {
      std::string out = " (";
      for (std::size_t i = 0; i < op.vars.size(); ++i) out += (i ? " ?" : "?") + op.vars[i];
      return out + ")";
    }
    case Op::Kind::Slice:
      return " " + std::to_string(op.offset) + " " + (op.limit ? std::to_string(*op.limit) : "_");
    default:
      return "";
  }
}

std::string indentation(int depth) {
  return std::string(static_cast<std::size_t>(std::min(depth, kMaxIndentLevels)) * 2, ' ');
}

void print(const Op& op, const AlgebraFormat& format, int depth, std::string& out) {
  std::string indent = indentation(depth);
  out += indent + "(" + name(op.kind) + arguments(op);
  if (format.positions) out += " @" + std::to_string(op.pos.line) + ":" + std::to_string(op.pos.column);
  std::string inner = indentation(depth + 1);
  for (const auto& t : op.triples) {
    out += "\n" + inner + "(" + toSparql(t.subject) + " " + toSparql(t.predicate) + " " + toSparql(t.object) + ")";
  }
  if (op.kind == Op::Kind::Values) {
    std::string vars = "(";
    for (std::size_t i = 0; i < op.table.vars.size(); ++i) vars += (i ? " ?" : "?") + op.table.vars[i];
    out += "\n" + inner + "(vars " + vars + "))";
    for (const auto& row : op.table.rows) {
      out += "\n" + inner + "(row";
      for (const auto& cell : row) out += " " + cell.value_or("UNDEF");
      out += ")";
    }
  }
  for (const auto& c : op.children) {
    out += "\n";
    print(*c, format, depth + 1, out);
  }
  out += ")";
}

}  // namespace

std::string algebraToString(const Op& op, AlgebraFormat format) {
  std::string out;
  print(op, format, 0, out);
  return out;
}

std::string algebraToString(const Query& q, AlgebraFormat format) {
  static const char* const kForms[] = {"select", "construct", "ask", "describe"};
  std::string out = std::string("(") + kForms[static_cast<int>(q.form)];
  for (const auto& g : q.fromGraphs) out += "\n  (from " + g + ")";
  for (const auto& g : q.fromNamedGraphs) out += "\n  (from-named " + g + ")";
  if (q.form == Query::Form::Construct) {
    out += "\n  (template";
    for (const auto& t : q.constructTemplate) {
      out += "\n    (" + toSparql(t.subject) + " " + toSparql(t.predicate) + " " + toSparql(t.object) + ")";
    }
    out += ")";
  }
  if (q.form == Query::Form::Describe) {
    out += "\n  (describe";
    for (const auto& t : q.describeTerms) out += " " + toSparql(t);
    out += q.describeTerms.empty() ? " *)" : ")";
  }
  out += "\n";
  print(*q.pattern, format, 1, out);  // indented in place: re-indenting the lines afterwards was quadratic
  return out + ")";
}

std::string queryGraphToString(const QueryGraph& g) {
  static const char* const kKinds[] = {"variable", "blank", "constant"};
  std::string out;
  for (std::size_t i = 0; i < g.vertices().size(); ++i) {
    const auto& t = g.vertices()[i].term;
    out += "  v" + std::to_string(i) + " " + toSparql(t) + " (" + kKinds[static_cast<int>(t.kind)] + ")\n";
  }
  for (const auto& e : g.edges()) {
    out += "  v" + std::to_string(e.from) + " -> v" + std::to_string(e.to) + " [" + toSparql(e.predicate);
    if (e.predicateVertex) out += " = v" + std::to_string(*e.predicateVertex);
    out += "]\n";
  }
  auto components = g.components();
  out += "  components: " + std::to_string(components.size());
  for (const auto& c : components) {
    out += " {";
    for (std::size_t i = 0; i < c.size(); ++i) out += (i ? " v" : "v") + std::to_string(c[i]);
    out += "}";
  }
  return out + "\n";
}

}  // namespace gsparql::sparql
