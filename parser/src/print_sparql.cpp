// The pretty-printer. Its contract: parseQuery(toSparql(q)) yields the same
// algebra as q (positions aside). Operators are therefore printed in the
// shapes whose section 18 translation gives them back, e.g. Join(A, B) as
// "{ A } { B }" and LeftJoin(A, B, F) as "{ A } OPTIONAL { { B } FILTER(F) }".
#include <algorithm>
#include <map>

#include "parser/print.h"
#include "rdf/term.h"

namespace gsparql::sparql {
namespace {

using AggregateNames = std::map<std::string, const Expr*>;

// A literal's NUL bytes as \u0000: the term form keeps them raw (only its
// quote, backslash and line breaks are escaped), and no query text may hold one.
std::string withoutNul(const std::string& term) {
  if (term.find('\0') == std::string::npos) return term;
  std::string out;
  for (char c : term) {
    if (c == '\0') {
      out += "\\u0000";
    } else {
      out += c;
    }
  }
  return out;
}


std::string expr(const Expr& e, const AggregateNames& aggregates);

std::string argList(const std::vector<Expr>& args, const AggregateNames& aggregates) {
  std::string out = "(";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    out += expr(args[i], aggregates);
  }
  return out + ")";
}

bool isInfix(const std::string& name) {
  static const char* const kInfix[] = {"||", "&&", "=", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/"};
  return std::find(std::begin(kInfix), std::end(kInfix), name) != std::end(kInfix);
}

const Op& lastOf(const Op& op) { return op.kind == Op::Kind::Join ? lastOf(*op.children[1]) : op; }

// A left-deep join of BGPs and paths is what one triples block with property
// paths translates to; printed as one block it translates back the same way
// and keeps blank nodes in a single basic graph pattern. Two BGPs in a row
// would merge, so they need braces.
bool isTriplesChain(const Op& op) {
  if (op.kind == Op::Kind::Bgp) return !op.triples.empty();
  if (op.kind == Op::Kind::Path) return true;
  if (op.kind != Op::Kind::Join) return false;
  const Op& right = *op.children[1];
  bool rightOk = right.kind == Op::Kind::Path ||
                 (right.kind == Op::Kind::Bgp && !right.triples.empty() && lastOf(*op.children[0]).kind != Op::Kind::Bgp);
  return rightOk && isTriplesChain(*op.children[0]);
}

class Printer {
 public:
  std::string take() { return std::move(out_); }

  void query(const Query& q);
  void groupContent(const Op& op);
  void group(const Op& op) {
    line("{");
    ++indent_;
    groupContent(op);
    --indent_;
    line("}");
  }
  void select(const Op& op, const Query* q = nullptr);  // q: the query whose FROM clauses to print

 private:
  struct Modifiers;
  const Op* peel(const Op* op, Modifiers& m, bool isSelect);
  void modifiers(const Modifiers& m);
  void line(const std::string& text) {
    out_.append(static_cast<std::size_t>(std::min(indent_, kMaxIndentLevels)) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }
  void values(const Table& t);
  void datasets(const Query& q);
  void whereAndModifiers(const Op& where, const Modifiers& m);
  void triples(const std::vector<TriplePattern>& ts);
  std::string term(const Term& t) const;
  const Op& withoutSugar(const Op& op, unsigned extends);
  void collectPrintedAs(const Op& op);

  std::string out_;
  int indent_ = 0;
  // SPARQL 1.2: what the parser's invented variables stand for (Op::printedAs).
  std::map<std::string, std::string> printedAs_;
};

struct Printer::Modifiers {
  const Op* slice = nullptr;
  bool distinct = false, reduced = false;
  const Op* project = nullptr;
  const Op* order = nullptr;
  std::vector<const Op*> extends;  // top-down
  const Op* values = nullptr;
  const Op* having = nullptr;
  const Op* group = nullptr;
  AggregateNames aggregates;
};

void Printer::triples(const std::vector<TriplePattern>& ts) {
  for (const auto& t : ts) line(term(t.subject) + " " + term(t.predicate) + " " + term(t.object) + " .");
}

std::string Printer::term(const Term& t) const {
  if (t.kind == Term::Kind::Variable) {
    if (auto it = printedAs_.find(t.value); it != printedAs_.end()) return it->second;
  }
  return toSparql(t);
}

// A template is printed before its WHERE pattern, which says what the
// template's triple terms are: all of a query's are read first.
void Printer::collectPrintedAs(const Op& op) {
  printedAs_.insert(op.printedAs.begin(), op.printedAs.end());
  for (const auto& child : op.children) collectPrintedAs(*child);
}

// Records what `op`'s invented variables stand for and returns what is below
// the operators the parser added for them: `op` itself and `extends` Extends.
const Op& Printer::withoutSugar(const Op& op, unsigned extends) {
  printedAs_.insert(op.printedAs.begin(), op.printedAs.end());
  const Op* below = op.children[0].get();
  for (unsigned i = 0; i < extends; ++i) below = below->children[0].get();
  return *below;
}

void Printer::values(const Table& t) {
  std::string head = "VALUES (";
  for (std::size_t i = 0; i < t.vars.size(); ++i) head += (i ? " ?" : "?") + t.vars[i];
  line(head + ") {");
  ++indent_;
  for (const auto& row : t.rows) {
    std::string r = "(";
    for (std::size_t i = 0; i < row.size(); ++i) r += (i ? " " : "") + (row[i] ? withoutNul(*row[i]) : "UNDEF");
    line(r + ")");
  }
  --indent_;
  line("}");
}

void Printer::groupContent(const Op& op) {
  switch (op.kind) {
    case Op::Kind::Bgp:
      triples(op.triples);
      return;
    case Op::Kind::Path:
      line(term(op.subject) + " " + toSparql(op.path) + " " + term(op.object) + " .");
      return;
    case Op::Kind::Join:
      if (!op.printedBgp.empty()) {
        collectPrintedAs(op);
        triples(op.printedBgp);
      } else if (isTriplesChain(op)) {
        groupContent(*op.children[0]);
        groupContent(*op.children[1]);
      } else {
        group(*op.children[0]);
        group(*op.children[1]);
      }
      return;
    case Op::Kind::LeftJoin:
      group(*op.children[0]);
      line("OPTIONAL {");
      ++indent_;
      if (op.exprs.empty() && op.children[1]->kind == Op::Kind::Filter) {
        group(*op.children[1]);  // in the OPTIONAL's own group, its FILTER would become the LeftJoin's condition
      } else if (op.exprs.empty()) {
        groupContent(*op.children[1]);
      } else {
        group(*op.children[1]);
        for (const auto& e : op.exprs) line("FILTER(" + toSparql(e) + ")");
      }
      --indent_;
      line("}");
      return;
    case Op::Kind::Union:
    case Op::Kind::Minus:
      group(*op.children[0]);
      line(op.kind == Op::Kind::Union ? "UNION" : "MINUS");
      group(*op.children[1]);
      return;
    case Op::Kind::Filter:
      if (!op.printedAs.empty()) {  // triple terms of a pattern, written back
        groupContent(withoutSugar(op, op.sugarExtends));
        return;
      }
      group(*op.children[0]);
      for (const auto& e : op.exprs) line("FILTER(" + toSparql(e) + ")");
      return;
    case Op::Kind::Extend:
      group(*op.children[0]);
      line("BIND(" + toSparql(op.bindings[0].expr) + " AS ?" + op.bindings[0].var + ")");
      return;
    case Op::Kind::Graph:
    case Op::Kind::Service:
      line(std::string(op.kind == Op::Kind::Graph ? "GRAPH " : op.silent ? "SERVICE SILENT " : "SERVICE ") +
           toSparql(op.graph));
      group(*op.children[0]);
      return;
    case Op::Kind::Values:
      values(op.table);
      return;
    default:  // a sub-select
      line("{");
      ++indent_;
      select(op);
      --indent_;
      line("}");
  }
}

// Splits the operators that section 18.2.4-5 put above the WHERE pattern.
const Op* Printer::peel(const Op* op, Modifiers& m, bool isSelect) {
  if (op->kind == Op::Kind::Slice) m.slice = op, op = op->children[0].get();
  if (op->kind == Op::Kind::Distinct) m.distinct = true, op = op->children[0].get();
  if (op->kind == Op::Kind::Reduced) m.reduced = true, op = op->children[0].get();
  if (isSelect && op->kind == Op::Kind::Project) m.project = op, op = op->children[0].get();
  if (op->kind == Op::Kind::OrderBy) m.order = op, op = op->children[0].get();
  // Extends print as SELECT expressions when they bind projected variables
  // in projection order (a BIND at the end of WHERE gives the same algebra).
  std::size_t limit = m.project ? m.project->vars.size() : 0;
  while (m.project && op->kind == Op::Kind::Extend) {
    const auto& vars = m.project->vars;
    auto at = static_cast<std::size_t>(std::find(vars.begin(), vars.end(), op->bindings[0].var) - vars.begin());
    if (at >= limit) break;
    limit = at;
    m.extends.push_back(op);
    op = op->children[0].get();
  }
  if (op->kind == Op::Kind::Join && op->children[1]->kind == Op::Kind::Values) {
    m.values = op->children[1].get();
    op = op->children[0].get();
  }
  if (op->kind == Op::Kind::Filter && op->children[0]->kind == Op::Kind::Group) m.having = op, op = op->children[0].get();
  if (op->kind == Op::Kind::Group) {
    m.group = op;
    for (const auto& a : op->aggregates) m.aggregates[a.var] = &a.expr;
    op = op->children[0].get();
  }
  return op;
}

void Printer::modifiers(const Modifiers& m) {
  if (m.group && !m.group->bindings.empty()) {
    std::string keys = "GROUP BY";
    for (const auto& k : m.group->bindings) {
      bool plainVar = k.expr.kind == Expr::Kind::Term && k.expr.term == Term::variable(k.var);
      keys += plainVar ? " ?" + k.var
                       : " (" + expr(k.expr, {}) + (k.var.empty() ? "" : " AS ?" + k.var) + ")";
    }
    line(keys);
  }
  if (m.having) {
    std::string having = "HAVING";
    for (const auto& e : m.having->exprs) having += " (" + expr(e, m.aggregates) + ")";
    line(having);
  }
  if (m.order) {
    std::string order = "ORDER BY";
    for (const auto& k : m.order->order) order += (k.descending ? " DESC(" : " ASC(") + expr(k.expr, m.aggregates) + ")";
    line(order);
  }
  if (m.slice && m.slice->offset > 0) line("OFFSET " + std::to_string(m.slice->offset));
  if (m.slice && m.slice->limit) line("LIMIT " + std::to_string(*m.slice->limit));
  if (m.values) values(m.values->table);
}

void Printer::select(const Op& op, const Query* q) {
  Modifiers m;
  const Op* where = peel(&op, m, true);
  std::string head = "SELECT";
  if (m.distinct) head += " DISTINCT";
  if (m.reduced) head += " REDUCED";
  if (m.project->vars.empty()) head += " *";
  for (const auto& v : m.project->vars) {
    auto e = std::find_if(m.extends.begin(), m.extends.end(), [&](const Op* x) { return x->bindings[0].var == v; });
    head += e == m.extends.end() ? " ?" + v : " (" + expr((*e)->bindings[0].expr, m.aggregates) + " AS ?" + v + ")";
  }
  line(head);
  if (q) datasets(*q);
  whereAndModifiers(*where, m);
}

void Printer::whereAndModifiers(const Op& where, const Modifiers& m) {
  line("WHERE {");
  ++indent_;
  groupContent(where);
  --indent_;
  line("}");
  modifiers(m);
}

void Printer::datasets(const Query& q) {
  for (const auto& g : q.fromGraphs) line("FROM " + g);
  for (const auto& g : q.fromNamedGraphs) line("FROM NAMED " + g);
}

void Printer::query(const Query& q) {
  collectPrintedAs(*q.pattern);
  if (q.form == Query::Form::Select) {
    select(*q.pattern, &q);
    return;
  }
  Modifiers m;
  const Op* where = peel(q.pattern.get(), m, false);
  // A template's triple terms are built above the WHERE pattern.
  while (where->kind == Op::Kind::Extend && !where->printedAs.empty()) where = &withoutSugar(*where, 0);
  if (q.form == Query::Form::Construct && q.constructWhere) {  // its blank nodes are the pattern's
    line("CONSTRUCT");
    datasets(q);
    line("WHERE {");
    ++indent_;
    triples(q.constructTemplate);
    --indent_;
    line("}");
    modifiers(m);
    return;
  }
  if (q.form == Query::Form::Construct) {
    line("CONSTRUCT {");
    ++indent_;
    triples(q.constructTemplate);
    --indent_;
    line("}");
  } else if (q.form == Query::Form::Ask) {
    line("ASK");
  } else {
    std::string head = "DESCRIBE";
    for (const auto& t : q.describeTerms) head += " " + toSparql(t);
    line(q.describeTerms.empty() ? head + " *" : head);
  }
  datasets(q);
  whereAndModifiers(*where, m);
}

std::string pattern(const Op& op) {
  Printer p;
  p.group(op);
  std::string text = p.take();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string expr(const Expr& e, const AggregateNames& aggregates) {
  switch (e.kind) {
    case Expr::Kind::Term: {
      auto agg = e.term.kind == Term::Kind::Variable ? aggregates.find(e.term.value) : aggregates.end();
      return agg == aggregates.end() ? toSparql(e.term) : expr(*agg->second, aggregates);
    }
    case Expr::Kind::Exists:
    case Expr::Kind::NotExists:
      return (e.kind == Expr::Kind::Exists ? "EXISTS " : "NOT EXISTS ") + pattern(*e.pattern);
    case Expr::Kind::Aggregate: {
      std::string out = e.name + "(" + (e.distinct ? "DISTINCT " : "");
      out += e.star ? "*" : expr(e.args[0], aggregates);
      if (e.separator) out += " ; SEPARATOR=" + rdf::literalTerm(*e.separator);
      return out + ")";
    }
    case Expr::Kind::Function: {
      std::string args = argList(e.args, aggregates);
      if (e.distinct) args.insert(1, "DISTINCT ");
      return e.name + args;
    }
    case Expr::Kind::Call:
      break;
  }
  if (isInfix(e.name)) return "(" + expr(e.args[0], aggregates) + " " + e.name + " " + expr(e.args[1], aggregates) + ")";
  if (e.name == "!" || e.name == "UPLUS" || e.name == "UMINUS") {
    return std::string("(") + (e.name == "!" ? "!" : e.name == "UPLUS" ? "+" : "-") + expr(e.args[0], aggregates) + ")";
  }
  if (e.name == "IN" || e.name == "NOT IN") {
    std::vector<Expr> list(e.args.begin() + 1, e.args.end());
    return "(" + expr(e.args[0], aggregates) + " " + e.name + " " + argList(list, aggregates) + ")";
  }
  return e.name + argList(e.args, aggregates);
}

}  // namespace

std::string toSparql(const Term& t) {
  switch (t.kind) {
    case Term::Kind::Variable: return "?" + t.value;
    case Term::Kind::Blank: return "_:" + t.value;
    case Term::Kind::Constant: return withoutNul(t.value);
  }
  return t.value;
}

std::string toSparql(const Path& p) {
  auto joined = [&](const char* sep) {
    std::string out = "(";
    for (std::size_t i = 0; i < p.args.size(); ++i) out += (i ? sep : "") + toSparql(p.args[i]);
    return out + ")";
  };
  switch (p.kind) {
    case Path::Kind::Link: return p.iri;
    case Path::Kind::Inverse: return "^" + (p.args[0].kind == Path::Kind::Link ? p.args[0].iri : "(" + toSparql(p.args[0]) + ")");
    case Path::Kind::Sequence: return joined("/");
    case Path::Kind::Alternative: return joined("|");
    case Path::Kind::ZeroOrMore: return "(" + toSparql(p.args[0]) + ")*";
    case Path::Kind::OneOrMore: return "(" + toSparql(p.args[0]) + ")+";
    case Path::Kind::ZeroOrOne: return "(" + toSparql(p.args[0]) + ")?";
    case Path::Kind::NegatedSet: return "!" + joined("|");
  }
  return p.iri;
}

std::string toSparql(const Expr& e) { return expr(e, {}); }

std::string toSparql(const Query& q) {
  Printer p;
  p.query(q);
  return p.take();
}

}  // namespace gsparql::sparql
