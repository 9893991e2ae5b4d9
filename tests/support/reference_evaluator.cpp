#include "support/reference_evaluator.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <tuple>

namespace gsparql::test {
namespace {

using sparql::Expr;
using sparql::Op;

constexpr const char* kInteger = "<http://www.w3.org/2001/XMLSchema#integer>";
constexpr const char* kBoolean = "<http://www.w3.org/2001/XMLSchema#boolean>";
constexpr const char* kString = "<http://www.w3.org/2001/XMLSchema#string>";

// ---- terms ----

struct Literal {
  std::string lexical, language, datatype;  // datatype "<...>", empty for simple literals
};

bool isIri(const std::string& t) { return !t.empty() && t[0] == '<'; }
bool isBlank(const std::string& t) { return t.starts_with("_:"); }
bool isLiteral(const std::string& t) { return !t.empty() && t[0] == '"'; }

// Splits a literal; its lexical form is kept escaped (only compared).
Literal literal(const std::string& t) {
  const size_t close = t.rfind('"');
  Literal l;
  l.lexical = t.substr(1, close - 1);
  const std::string rest = t.substr(close + 1);
  if (rest.starts_with("@")) l.language = rest.substr(1);
  if (rest.starts_with("^^")) l.datatype = rest.substr(2);
  if (l.datatype == kString) l.datatype.clear();  // xsd:string is the simple literal
  return l;
}

std::optional<long long> integerValue(const std::string& t) {
  if (!isLiteral(t)) return std::nullopt;
  const Literal l = literal(t);
  if (l.datatype != kInteger) return std::nullopt;
  std::string_view text = l.lexical;
  if (text.starts_with("+")) text.remove_prefix(1);
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

bool isSimpleString(const std::string& t) {
  if (!isLiteral(t)) return false;
  const Literal l = literal(t);
  return l.language.empty() && l.datatype.empty();
}

std::optional<bool> booleanValue(const std::string& t) {
  if (!isLiteral(t) || literal(t).datatype != kBoolean) return std::nullopt;
  const std::string lex = literal(t).lexical;
  if (lex == "true" || lex == "1") return true;
  if (lex == "false" || lex == "0") return false;
  return std::nullopt;
}

std::string integerTerm(long long v) { return "\"" + std::to_string(v) + "\"^^" + kInteger; }
std::string booleanTerm(bool b) { return std::string("\"") + (b ? "true" : "false") + "\"^^" + kBoolean; }

// The value comparison of `<` (section 17.3): numbers, simple strings and
// booleans among themselves; nullopt for a type error.
std::optional<int> compareValues(const std::string& a, const std::string& b) {
  auto x = integerValue(a), y = integerValue(b);
  if (x && y) return *x < *y ? -1 : *x > *y;
  if (isSimpleString(a) && isSimpleString(b)) {
    const auto p = literal(a).lexical, q = literal(b).lexical;
    return p < q ? -1 : p > q;
  }
  auto s = booleanValue(a), t = booleanValue(b);
  if (s && t) return int(*s) - int(*t);
  return std::nullopt;
}

// A kind whose values `=` compares by value; different known kinds are
// simply unequal (as most engines and SPARQL 1.1's extension rules allow);
// only a literal of an unknown datatype against another literal is an error.
enum class Kind { Iri, Blank, Integer, SimpleString, Boolean, LangString, Other };
Kind kindOf(const std::string& t) {
  if (isIri(t)) return Kind::Iri;
  if (isBlank(t)) return Kind::Blank;
  if (integerValue(t)) return Kind::Integer;
  if (isSimpleString(t)) return Kind::SimpleString;
  if (booleanValue(t)) return Kind::Boolean;
  if (!literal(t).language.empty()) return Kind::LangString;
  return Kind::Other;
}

// `=` (RDFterm-equal with value comparison of numbers, strings and booleans).
std::optional<bool> equalValues(const std::string& a, const std::string& b) {
  const Kind x = kindOf(a), y = kindOf(b);
  if (x == y && (x == Kind::Integer || x == Kind::SimpleString || x == Kind::Boolean)) {
    return *compareValues(a, b) == 0;
  }
  if (a == b) return true;
  if ((x == Kind::Other && isLiteral(b)) || (y == Kind::Other && isLiteral(a))) return std::nullopt;
  return false;
}

// ---- mappings ----

// Section 18.3: compatible when every shared variable has the same term.
bool compatible(const Mapping& a, const Mapping& b) {
  for (const auto& [variable, term] : a) {
    auto it = b.find(variable);
    if (it != b.end() && it->second != term) return false;
  }
  return true;
}

Mapping merge(const Mapping& a, const Mapping& b) {
  Mapping m = a;
  m.insert(b.begin(), b.end());
  return m;
}

bool sharesAVariable(const Mapping& a, const Mapping& b) {
  for (const auto& entry : a) {
    if (b.contains(entry.first)) return true;
  }
  return false;
}

// A conjunction of filter expressions: true only when each is true.
bool holds(const std::vector<Expr>& conjunction, const Mapping& m) {
  for (const auto& e : conjunction) {
    auto value = referenceExpression(e, m);
    if (!value) return false;
    auto truth = referenceEffectiveBooleanValue(*value);
    if (!truth || !*truth) return false;
  }
  return true;
}

// ---- operators ----

using Graph = std::set<std::tuple<std::string, std::string, std::string>>;

Multiset evaluate(const Op& op, const Graph& graph);

// The graph referenceEvaluate is evaluating, for the EXISTS patterns of its
// expressions (referenceExpression's signature has no graph).
thread_local const Graph* existsGraph = nullptr;

// ---- EXISTS (section 18.6): substitute, then evaluate ----

sparql::Term substitute(sparql::Term t, const Mapping& m) {
  if (t.kind != sparql::Term::Kind::Variable) return t;
  auto it = m.find(t.value);
  return it == m.end() ? t : sparql::Term::constant(it->second);
}

sparql::OpPtr substitute(const Op& op, const Mapping& m);

Expr substitute(Expr e, const Mapping& m) {
  e.term = substitute(std::move(e.term), m);
  for (auto& a : e.args) a = substitute(std::move(a), m);
  if (e.pattern) e.pattern = substitute(*e.pattern, m);
  return e;
}

// Every variable of `op` that `m` binds replaced by its value. Only the
// operators where that replacement is unambiguous: no OPTIONAL, MINUS,
// BIND, VALUES or subqueries inside EXISTS.
sparql::OpPtr substitute(const Op& op, const Mapping& m) {
  if (op.kind != Op::Kind::Bgp && op.kind != Op::Kind::Join && op.kind != Op::Kind::Union &&
      op.kind != Op::Kind::Filter) {
    throw ReferenceUnsupported("EXISTS over algebra operator " + std::to_string(static_cast<int>(op.kind)));
  }
  Op copy = op;
  for (auto& t : copy.triples) {
    t.subject = substitute(std::move(t.subject), m);
    t.predicate = substitute(std::move(t.predicate), m);
    t.object = substitute(std::move(t.object), m);
  }
  for (auto& e : copy.exprs) e = substitute(std::move(e), m);
  for (auto& child : copy.children) child = substitute(*child, m);
  return std::make_shared<const Op>(std::move(copy));
}

bool exists(const Op& pattern, const Mapping& m) {
  if (existsGraph == nullptr) throw ReferenceUnsupported("EXISTS outside referenceEvaluate");
  return !evaluate(*substitute(pattern, m), *existsGraph).empty();
}

std::string patternKey(const sparql::Term& t) {
  return t.kind == sparql::Term::Kind::Blank ? "_:" + t.value : t.value;
}

// Matches one pattern term against a data term, extending `m`.
bool bindTerm(const sparql::Term& t, const std::string& value, Mapping& m) {
  if (t.kind == sparql::Term::Kind::Constant) return t.value == value;
  auto [it, inserted] = m.emplace(patternKey(t), value);
  return inserted || it->second == value;
}

Multiset evaluateBgp(const Op& op, const Graph& graph) {
  Multiset solutions{Mapping{}};
  for (const auto& pattern : op.triples) {
    Multiset next;
    for (const auto& m : solutions) {
      for (const auto& [s, p, o] : graph) {
        Mapping extended = m;
        if (bindTerm(pattern.subject, s, extended) && bindTerm(pattern.predicate, p, extended) &&
            bindTerm(pattern.object, o, extended)) {
          next.push_back(std::move(extended));
        }
      }
    }
    solutions = std::move(next);
  }
  // Blank nodes are existential: not part of the solutions.
  for (auto& m : solutions) {
    std::erase_if(m, [](const auto& entry) { return entry.first.starts_with("_:"); });
  }
  return solutions;
}

Multiset join(const Multiset& left, const Multiset& right) {
  Multiset out;
  for (const auto& a : left) {
    for (const auto& b : right) {
      if (compatible(a, b)) out.push_back(merge(a, b));
    }
  }
  return out;
}

// LeftJoin(Ω1, Ω2, expr) = Filter(expr, Join(Ω1, Ω2)) ∪ Diff(Ω1, Ω2, expr).
Multiset leftJoin(const Multiset& left, const Multiset& right, const std::vector<Expr>& condition) {
  Multiset out;
  for (const auto& a : left) {
    for (const auto& b : right) {
      if (!compatible(a, b)) continue;
      Mapping m = merge(a, b);
      if (holds(condition, m)) out.push_back(std::move(m));
    }
  }
  for (const auto& a : left) {
    bool inDiff = true;
    for (const auto& b : right) {
      if (compatible(a, b) && holds(condition, merge(a, b))) inDiff = false;
    }
    if (inDiff) out.push_back(a);
  }
  return out;
}

// Minus(Ω1, Ω2) = { μ in Ω1 | for all μ' in Ω2: μ, μ' incompatible or dom(μ) ∩ dom(μ') = ∅ }.
Multiset minus(const Multiset& left, const Multiset& right) {
  Multiset out;
  for (const auto& a : left) {
    bool keep = true;
    for (const auto& b : right) {
      if (compatible(a, b) && sharesAVariable(a, b)) keep = false;
    }
    if (keep) out.push_back(a);
  }
  return out;
}

int compareForOrderBy(const Mapping& a, const Mapping& b, const std::vector<sparql::OrderKey>& keys) {
  for (const auto& key : keys) {
    auto x = referenceExpression(key.expr, a), y = referenceExpression(key.expr, b);
    const int c = referenceOrder(x, y).value_or(0);
    if (c != 0) return key.descending ? -c : c;
  }
  return 0;
}

Multiset evaluate(const Op& op, const Graph& graph) {
  switch (op.kind) {
    case Op::Kind::Bgp: return evaluateBgp(op, graph);
    case Op::Kind::Join: return join(evaluate(*op.children[0], graph), evaluate(*op.children[1], graph));
    case Op::Kind::LeftJoin:
      return leftJoin(evaluate(*op.children[0], graph), evaluate(*op.children[1], graph), op.exprs);
    case Op::Kind::Union: {
      Multiset out = evaluate(*op.children[0], graph);
      for (auto& m : evaluate(*op.children[1], graph)) out.push_back(std::move(m));
      return out;
    }
    case Op::Kind::Minus: return minus(evaluate(*op.children[0], graph), evaluate(*op.children[1], graph));
    case Op::Kind::Filter: {
      Multiset out;
      for (auto& m : evaluate(*op.children[0], graph)) {
        if (holds(op.exprs, m)) out.push_back(std::move(m));
      }
      return out;
    }
    case Op::Kind::Extend: {
      const sparql::Binding& b = op.bindings[0];
      Multiset out = evaluate(*op.children[0], graph);
      for (auto& m : out) {
        if (m.contains(b.var)) throw ReferenceUnsupported("Extend of a bound variable ?" + b.var);
        if (auto value = referenceExpression(b.expr, m)) m[b.var] = *value;
      }
      return out;
    }
    case Op::Kind::Values: {
      Multiset out;
      for (const auto& row : op.table.rows) {
        Mapping m;
        for (size_t i = 0; i < row.size(); ++i) {
          if (row[i]) m[op.table.vars[i]] = *row[i];
        }
        out.push_back(std::move(m));
      }
      return out;
    }
    case Op::Kind::Project: {
      Multiset out = evaluate(*op.children[0], graph);
      for (auto& m : out) {
        std::erase_if(m, [&](const auto& entry) {
          return std::find(op.vars.begin(), op.vars.end(), entry.first) == op.vars.end();
        });
      }
      return out;
    }
    case Op::Kind::Distinct: {
      Multiset out;
      for (auto& m : evaluate(*op.children[0], graph)) {
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(std::move(m));
      }
      return out;
    }
    case Op::Kind::Reduced: return evaluate(*op.children[0], graph);  // may keep every duplicate
    case Op::Kind::Slice: {
      Multiset all = evaluate(*op.children[0], graph), out;
      for (size_t i = op.offset; i < all.size() && (!op.limit || out.size() < *op.limit); ++i) {
        out.push_back(std::move(all[i]));
      }
      return out;
    }
    case Op::Kind::OrderBy: {
      Multiset out = evaluate(*op.children[0], graph);
      // Insertion sort: stable, and safe with the partial order (no strict weak order needed).
      for (size_t i = 1; i < out.size(); ++i) {
        for (size_t j = i; j > 0 && compareForOrderBy(out[j], out[j - 1], op.order) < 0; --j) {
          std::swap(out[j], out[j - 1]);
        }
      }
      return out;
    }
    default: throw ReferenceUnsupported("algebra operator " + std::to_string(static_cast<int>(op.kind)));
  }
}

std::vector<std::string> patternVariablesOf(const Op& op) {
  return sparql::inScopeVariables(op);
}

}  // namespace

Multiset referenceEvaluate(const Op& op, const std::vector<StringTriple>& triples) {
  Graph graph;
  for (const auto& t : triples) graph.insert({t.s, t.p, t.o});
  const Graph* outer = existsGraph;
  existsGraph = &graph;
  Multiset solutions = evaluate(op, graph);
  existsGraph = outer;
  return solutions;
}

std::optional<std::string> referenceExpression(const Expr& e, const Mapping& m) {
  switch (e.kind) {
    case Expr::Kind::Term: {
      if (e.term.kind == sparql::Term::Kind::Constant) return e.term.value;
      auto it = m.find(e.term.value);
      if (it == m.end()) return std::nullopt;  // unbound: an error
      return it->second;
    }
    case Expr::Kind::Call: break;
    case Expr::Kind::Exists:
    case Expr::Kind::NotExists: return booleanTerm(exists(*e.pattern, m) == (e.kind == Expr::Kind::Exists));
    default: throw ReferenceUnsupported("expression kind " + std::to_string(static_cast<int>(e.kind)));
  }
  const std::string& name = e.name;
  if (name == "BOUND") {
    if (e.args.size() != 1 || e.args[0].kind != Expr::Kind::Term) throw ReferenceUnsupported("BOUND");
    // A constant: a value EXISTS substituted for the variable.
    const sparql::Term& t = e.args[0].term;
    return booleanTerm(t.isConstant() || m.contains(t.value));
  }
  auto truth = [&](const Expr& x) -> std::optional<bool> {
    auto v = referenceExpression(x, m);
    if (!v) return std::nullopt;
    return referenceEffectiveBooleanValue(*v);
  };
  if (name == "&&" || name == "||") {  // section 17.2: errors only matter when they decide
    const bool isAnd = name == "&&";
    auto a = truth(e.args[0]), b = truth(e.args[1]);
    if ((a && *a != isAnd) || (b && *b != isAnd)) return booleanTerm(!isAnd);
    if (a && b) return booleanTerm(isAnd);
    return std::nullopt;
  }
  if (name == "!") {
    auto a = truth(e.args[0]);
    if (!a) return std::nullopt;
    return booleanTerm(!*a);
  }
  if (name == "IN" || name == "NOT IN") {  // section 17.4.1.9/10: a disjunction of = (conjunction of !=)
    auto left = referenceExpression(e.args[0], m);
    if (!left) return std::nullopt;
    bool error = false;
    for (size_t i = 1; i < e.args.size(); ++i) {
      auto right = referenceExpression(e.args[i], m);
      auto equal = right ? equalValues(*left, *right) : std::nullopt;
      if (!equal) {
        error = true;
      } else if (*equal) {
        return booleanTerm(name == "IN");
      }
    }
    if (error) return std::nullopt;
    return booleanTerm(name == "NOT IN");
  }
  std::vector<std::string> args;
  for (const auto& a : e.args) {
    auto v = referenceExpression(a, m);
    if (!v) return std::nullopt;
    args.push_back(*v);
  }
  if (args.size() == 2) {
    const std::string &a = args[0], &b = args[1];
    if (name == "SAMETERM") return booleanTerm(a == b);
    if (name == "=" || name == "!=") {
      auto equal = equalValues(a, b);
      if (!equal) return std::nullopt;
      return booleanTerm(*equal == (name == "="));
    }
    if (name == "<" || name == ">" || name == "<=" || name == ">=") {
      auto c = compareValues(a, b);
      if (!c) return std::nullopt;
      if (name == "<") return booleanTerm(*c < 0);
      if (name == ">") return booleanTerm(*c > 0);
      if (name == "<=") return booleanTerm(*c <= 0);
      return booleanTerm(*c >= 0);
    }
    if (name == "+" || name == "-") {
      auto x = integerValue(a), y = integerValue(b);
      if (!x || !y) return std::nullopt;
      return integerTerm(name == "+" ? *x + *y : *x - *y);
    }
  }
  throw ReferenceUnsupported("expression " + name);
}

std::optional<bool> referenceEffectiveBooleanValue(const std::string& term) {
  if (!isLiteral(term)) return std::nullopt;
  const Literal l = literal(term);
  if (!l.language.empty()) return std::nullopt;
  if (l.datatype.empty()) return !l.lexical.empty();
  if (l.datatype == kBoolean) return booleanValue(term).value_or(false);
  if (l.datatype == kInteger) {
    auto v = integerValue(term);
    return v && *v != 0;  // an ill-typed number is false
  }
  return std::nullopt;
}

std::optional<int> referenceOrder(const std::optional<std::string>& a, const std::optional<std::string>& b) {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  auto rank = [](const std::string& t) { return isBlank(t) ? 0 : isIri(t) ? 1 : 2; };
  if (rank(*a) != rank(*b)) return rank(*a) < rank(*b) ? -1 : 1;
  if (*a == *b) return 0;
  if (isIri(*a)) {  // by the IRI's characters, without the brackets
    const std::string x = a->substr(1, a->size() - 2), y = b->substr(1, b->size() - 2);
    return x < y ? -1 : 1;
  }
  if (isBlank(*a)) return std::nullopt;  // labels carry no order
  return compareValues(*a, *b);
}

std::vector<std::string> referenceResultVariables(const Op& root) {
  const Op* op = &root;
  while (op->kind == Op::Kind::Slice || op->kind == Op::Kind::Distinct || op->kind == Op::Kind::Reduced ||
         op->kind == Op::Kind::OrderBy) {
    op = op->children[0].get();
  }
  if (op->kind == Op::Kind::Project) return op->vars;
  return patternVariablesOf(*op);
}

std::string rowKey(const Mapping& mapping, const std::vector<std::string>& variables) {
  std::string key;
  for (const auto& v : variables) {
    auto it = mapping.find(v);
    key += (key.empty() ? "?" : "\t?") + v + "=" + (it == mapping.end() ? std::string("UNDEF") : it->second);
  }
  return key;
}

}  // namespace gsparql::test
