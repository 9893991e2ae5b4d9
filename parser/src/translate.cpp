#include "parser/src/translate.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "parser/query_graph.h"
#include "parser/src/triple_set.h"
#include "parser/src/variables.h"
#include "parser/syntax_error.h"

namespace gsparql::sparql {
namespace {

// Every BGP carries its query graph, so the engine reads it as data.
OpPtr make(Op op) {
  if (op.kind == Op::Kind::Bgp) op.queryGraph = std::make_shared<const QueryGraph>(QueryGraph::fromBgp(op.triples));
  return std::make_shared<const Op>(std::move(op));
}

Op node(Op::Kind kind, Position pos, std::vector<OpPtr> children = {}) {
  Op op;
  op.kind = kind;
  op.pos = pos;
  op.children = std::move(children);
  return op;
}

bool isEmptyBgp(const OpPtr& op) { return op->kind == Op::Kind::Bgp && op->triples.empty(); }

// Join with the simplification of 18.2.2.8: the empty BGP is the identity.
OpPtr join(OpPtr a, OpPtr b, Position pos) {
  if (isEmptyBgp(a)) return b;
  if (isEmptyBgp(b)) return a;
  return make(node(Op::Kind::Join, pos, {std::move(a), std::move(b)}));
}

// A basic graph pattern being read: patterns are added in place and the Op
// (with its query graph) is made once, so a BGP of n patterns, even split by
// FILTERs into many blocks, costs O(n log n). A repeated pattern adds nothing.
class BgpBuilder {
 public:
  void add(const TriplePattern& t) {
    if (bgp_.triples.empty()) bgp_.pos = t.pos;  // a BGP is where its first pattern is
    if (seen_.insert(t)) bgp_.triples.push_back(t);
  }
  bool empty() const { return bgp_.triples.empty(); }
  Position pos() const { return bgp_.pos; }
  // The BGP read so far; the builder starts again, empty.
  OpPtr take() {
    seen_ = {};
    return make(std::exchange(bgp_, node(Op::Kind::Bgp, {})));
  }

 private:
  Op bgp_ = node(Op::Kind::Bgp, {});
  TripleSet seen_;
};

bool hasPath(const std::vector<ast::TripleItem>& items) {
  return std::any_of(items.begin(), items.end(), [](const ast::TripleItem& i) { return i.path.has_value(); });
}

// Adds what `next`, the group after one more element, has in scope beyond
// `previous`. Only the new part is read, so checking the BINDs of a group
// does not walk the whole group once per BIND.
void addNewlyInScope(const OpPtr& previous, const OpPtr& next, Variables& inScope) {
  if (next == previous) return;
  if (next->children.empty() || next->children[0] != previous) {  // Join(empty BGP, X) = X
    addInScopeVariables(*next, inScope);
    return;
  }
  switch (next->kind) {
    case Op::Kind::Extend:
      inScope.add(next->bindings[0].var);
      return;
    case Op::Kind::Minus:  // the right side only removes solutions
      return;
    default:  // Join, LeftJoin
      addInScopeVariables(*next->children[1], inScope);
      return;
  }
}

Expr variableExpr(std::string name, Position pos) {
  Expr e;
  e.kind = Expr::Kind::Term;
  e.term = Term::variable(std::move(name));
  e.pos = pos;
  return e;
}

bool hasAggregate(const Expr& e) {
  if (e.kind == Expr::Kind::Aggregate) return true;
  return std::any_of(e.args.begin(), e.args.end(), hasAggregate);
}

void variablesOf(const Expr& e, std::vector<std::pair<std::string, Position>>& out) {
  if (e.kind == Expr::Kind::Term && e.term.kind == Term::Kind::Variable) out.emplace_back(e.term.value, e.pos);
  for (const auto& a : e.args) variablesOf(a, out);
}

}  // namespace

void Translator::fail(Position pos, std::string message) const {
  throw SyntaxError(text_, pos, std::move(message));
}

// "The same blank node label cannot be used in two different basic graph
// patterns in the same query" (section 4.1.4).
void Translator::checkBlankScope(const Term& t, Position pos) {
  if (t.kind != Term::Kind::Blank) return;
  auto [it, inserted] = blankScopes_.emplace(t.value, bgpScope_);
  if (!inserted && it->second != bgpScope_) {
    fail(pos, "blank node _:" + t.value + " is used in more than one basic graph pattern");
  }
}

void Translator::checkBlankScopes(const TriplePattern& t) {
  checkBlankScope(t.subject, t.pos);
  checkBlankScope(t.object, t.pos);
}

OpPtr Translator::triplesBlock(const std::vector<ast::TripleItem>& items) {
  OpPtr result = make(node(Op::Kind::Bgp, items.front().triple.pos));
  BgpBuilder plain;  // the triples since the last path
  auto endPlain = [&] {
    if (plain.empty()) return;
    const Position pos = plain.pos();
    result = join(result, plain.take(), pos);
  };
  for (const auto& item : items) {
    const TriplePattern t = withBlankVariables(item.triple, false);
    checkBlankScopes(t);
    if (!item.path) {
      plain.add(t);
      continue;
    }
    endPlain();
    Op path = node(Op::Kind::Path, t.pos);
    path.subject = t.subject;
    path.path = *item.path;
    path.object = t.object;
    result = join(result, make(std::move(path)), t.pos);
  }
  endPlain();
  return result;
}

OpPtr Translator::group(const ast::GroupPattern& g) {
  OpPtr current = make(node(Op::Kind::Bgp, g.pos));
  // While the group so far is one BGP, later triples (after FILTERs, which do
  // not end a BGP) join it here.
  BgpBuilder openBgp;
  // In-scope variables of `current`, kept only where a BIND needs them.
  const bool hasBind = std::any_of(g.elements.begin(), g.elements.end(),
                                   [](const ast::Element& e) { return e.kind == ast::Element::Kind::Bind; });
  Variables inScope;
  auto advance = [&](OpPtr next) {
    if (hasBind) addNewlyInScope(current, next, inScope);
    current = std::move(next);
  };
  auto closeBgp = [&] {
    if (!openBgp.empty()) advance(bindTripleTermParts(openBgp.take()));
  };
  std::vector<Expr> filters;
  int scope = ++scopeCounter_;
  for (const auto& e : g.elements) {
    if (e.kind == ast::Element::Kind::Filter) {
      filters.push_back(e.expr);
      continue;
    }
    if (e.kind == ast::Element::Kind::Triples) {
      bgpScope_ = scope;
      if (hasPath(e.triples) || (openBgp.empty() && !isEmptyBgp(current))) {
        closeBgp();
        advance(join(current, bindTripleTermParts(triplesBlock(e.triples)), e.pos));
        continue;
      }
      for (const auto& item : e.triples) {
        const TriplePattern t = withBlankVariables(item.triple, false);
        checkBlankScopes(t);
        openBgp.add(t);
      }
      continue;
    }
    closeBgp();
    if (e.kind == ast::Element::Kind::Bind && inScope.contains(e.var)) {
      fail(e.pos, "BIND assigns ?" + e.var + ", which is already in scope");
    }
    advance(combine(current, e));
    scope = ++scopeCounter_;
  }
  closeBgp();
  if (filters.empty()) return current;
  Op filter = node(Op::Kind::Filter, filters.front().pos, {current});
  filter.exprs = std::move(filters);
  return make(std::move(filter));
}

// Adds one non-triples, non-filter element to the group translated so far.
OpPtr Translator::combine(OpPtr current, const ast::Element& e) {
  using K = ast::Element::Kind;
  switch (e.kind) {
    case K::Group:
      return join(current, group(e.groups[0]), e.pos);
    case K::Union: {
      OpPtr u = group(e.groups[0]);
      for (std::size_t i = 1; i < e.groups.size(); ++i) {
        u = make(node(Op::Kind::Union, e.pos, {u, group(e.groups[i])}));
      }
      return join(current, u, e.pos);
    }
    case K::Optional: {
      OpPtr right = group(e.groups[0]);
      Op lj = node(Op::Kind::LeftJoin, e.pos, {current, right});
      // OPTIONAL { P FILTER(F) } is LeftJoin(G, P, F); a filter of a nested
      // group (OPTIONAL { { P FILTER(F) } }) stays inside it (section 18.2.2.6,
      // before the join simplification of 18.2.2.8).
      const bool ownFilters = std::any_of(e.groups[0].elements.begin(), e.groups[0].elements.end(),
                                          [](const ast::Element& x) { return x.kind == ast::Element::Kind::Filter; });
      if (right->kind == Op::Kind::Filter && ownFilters) {
        lj.children[1] = right->children[0];
        lj.exprs = right->exprs;
      }
      return make(std::move(lj));
    }
    case K::Minus:
      return make(node(Op::Kind::Minus, e.pos, {current, group(e.groups[0])}));
    case K::Graph:
    case K::Service: {
      Op g = node(e.kind == K::Graph ? Op::Kind::Graph : Op::Kind::Service, e.pos, {group(e.groups[0])});
      g.graph = e.name;
      g.silent = e.silent;
      return join(current, make(std::move(g)), e.pos);
    }
    case K::Bind: {  // group() checked that the variable is new
      Op extend = node(Op::Kind::Extend, e.pos, {current});
      extend.bindings.push_back({e.var, e.expr});
      return make(std::move(extend));
    }
    case K::Values: {
      Op values = node(Op::Kind::Values, e.pos);
      values.table = e.values;
      return join(current, make(std::move(values)), e.pos);
    }
    case K::SubSelect:
      return join(current, e.subSelect, e.pos);
    case K::Triples:
    case K::Filter:
      break;  // handled by group()
  }
  return current;
}

// Replaces each aggregate by a fresh variable bound by the Group operator
// (section 18.2.4.1).
void Translator::liftAggregates(Expr& e, std::vector<Binding>& aggregates) {
  if (e.kind == Expr::Kind::Aggregate) {
    for (const auto& a : e.args) {
      if (hasAggregate(a)) fail(a.pos, "aggregates cannot be nested");
    }
    std::string var = fresh_.next("_agg");
    aggregates.push_back({var, e});
    e = variableExpr(var, e.pos);
    return;
  }
  for (auto& a : e.args) liftAggregates(a, aggregates);
}

OpPtr Translator::modifiers(OpPtr p, const ast::SolutionModifiers& m) {
  const OpPtr pattern = p;
  std::vector<ast::SelectItem> items = m.items;
  std::vector<Expr> having = m.having;
  std::vector<OrderKey> order = m.order;
  bool grouped = m.hasGroupBy || !having.empty() ||
                 std::any_of(items.begin(), items.end(), [](const auto& i) { return i.expr && hasAggregate(*i.expr); }) ||
                 std::any_of(order.begin(), order.end(), [](const auto& k) { return hasAggregate(k.expr); });
  if (grouped) {
    if (m.selectAll) fail(m.pos, "SELECT * cannot be used with GROUP BY or aggregates");
    Op g = node(Op::Kind::Group, m.hasGroupBy ? m.groupPos : m.pos, {p});
    for (const auto& key : m.groupKeys) {
      if (hasAggregate(key.expr)) fail(key.expr.pos, "GROUP BY cannot contain aggregates");
      g.bindings.push_back(key);
    }
    for (auto& i : items) {
      if (i.expr) liftAggregates(*i.expr, g.aggregates);
    }
    for (auto& h : having) liftAggregates(h, g.aggregates);
    for (auto& k : order) liftAggregates(k.expr, g.aggregates);
    p = make(std::move(g));
    if (!having.empty()) {
      Op filter = node(Op::Kind::Filter, having.front().pos, {p});
      filter.exprs = std::move(having);
      p = make(std::move(filter));
    }
  }
  if (m.values) {
    Op values = node(Op::Kind::Values, m.pos);
    values.table = *m.values;
    p = join(p, make(std::move(values)), m.pos);
  }
  Variables visible;
  addInScopeVariables(*p, visible);
  for (const auto& i : items) {
    if (i.expr) {
      // Also a GROUP BY key, though the pattern never binds it: the SPARQL 1.2
      // tests (group-by-scope-bad-2) make that an error, where Jena 4 allowed it.
      if (visible.contains(i.var)) {
        fail(i.pos, "SELECT assigns ?" + i.var + ", which is already in scope");
      }
      if (grouped) checkGrouped(*i.expr, visible);
      Op extend = node(Op::Kind::Extend, i.pos, {p});
      extend.bindings.push_back({i.var, *i.expr});
      p = make(std::move(extend));
      visible.add(i.var);
    } else if (grouped && !visible.contains(i.var)) {
      fail(i.pos, "?" + i.var + " is neither grouped nor aggregated");
    }
  }
  if (!order.empty()) {
    Op orderBy = node(Op::Kind::OrderBy, order.front().expr.pos, {p});
    orderBy.order = std::move(order);
    p = make(std::move(orderBy));
  }
  if (m.isSelect) {
    Op project = node(Op::Kind::Project, m.pos, {p});
    if (m.selectAll) {
      std::copy_if(visible.ordered().begin(), visible.ordered().end(), std::back_inserter(project.vars),
                   [&](const std::string& v) { return !fresh_.invented(v); });
    } else {
      // The projection is a set of variables (SELECT ?x ?x has one column ?x, as in Jena).
      for (const auto& i : items) {
        if (std::find(project.vars.begin(), project.vars.end(), i.var) == project.vars.end()) {
          project.vars.push_back(i.var);
        }
      }
    }
    p = make(std::move(project));
  }
  if (m.distinct) p = make(node(Op::Kind::Distinct, m.pos, {p}));
  if (m.reduced) p = make(node(Op::Kind::Reduced, m.pos, {p}));
  if (m.offset > 0 || m.limit) {
    Op slice = node(Op::Kind::Slice, m.pos, {p});
    slice.offset = m.offset;
    slice.limit = m.limit;
    p = make(std::move(slice));
  }
  return p;
}

// In a grouped query an expression sees only group keys, aggregates (already
// lifted to variables) and earlier SELECT aliases.
void Translator::checkGrouped(const Expr& e, const Variables& visible) const {
  std::vector<std::pair<std::string, Position>> used;
  variablesOf(e, used);
  for (const auto& [var, pos] : used) {
    if (!visible.contains(var)) fail(pos, "?" + var + " is neither grouped nor aggregated");
  }
}

}  // namespace gsparql::sparql
