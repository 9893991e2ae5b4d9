#include "engine/logical/rdfs_entailment.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "gsparql/error.h"
#include "parser/parse.h"
#include "parser/rewrite.h"
#include "parser/query_graph.h"

namespace gsparql::engine {
namespace {

using sparql::Expr;
using sparql::Op;
using sparql::OpPtr;
using sparql::Term;
using sparql::TriplePattern;
using Pairs = std::vector<std::pair<std::string, std::string>>;
using Terms = std::set<std::string>;

const std::string kType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
const std::string kSubClassOf = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>";
const std::string kSubPropertyOf = "<http://www.w3.org/2000/01/rdf-schema#subPropertyOf>";

// The most pairs a hierarchy's closure is written out as (a VALUES row
// each): a chain of n classes has n(n-1)/2.
constexpr size_t kMostPairs = 100000;

[[noreturn]] void tooManyPairs() {
  throw QueryError("RDFS entailment: the schema's class or property hierarchies relate more than " +
                   std::to_string(kMostPairs) + " pairs of terms, too many to answer patterns of any type or property");
}

// A hierarchy (rdfs:subClassOf or rdfs:subPropertyOf) and its transitive,
// reflexive closure in either direction.
class Hierarchy {
 public:
  explicit Hierarchy(const Pairs& subSuper) {
    for (const auto& [sub, super] : subSuper) {
      below_[super].insert(sub);
      above_[sub].insert(super);
    }
  }
  Terms below(const std::string& t) const { return reach(below_, t); }
  Terms above(const std::string& t) const { return reach(above_, t); }
  // Every pair (lower, upper) of distinct terms with lower below upper.
  Pairs properPairs() const {
    Pairs out;
    for (const auto& [upper, unused] : below_) {
      for (const std::string& lower : below(upper)) {
        if (lower != upper) out.emplace_back(lower, upper);
        if (out.size() > kMostPairs) tooManyPairs();
      }
    }
    return out;
  }

 private:
  static Terms reach(const std::map<std::string, Terms>& edges, const std::string& from) {
    Terms seen{from};
    std::vector<std::string> todo{from};
    while (!todo.empty()) {
      const std::string t = std::move(todo.back());
      todo.pop_back();
      auto it = edges.find(t);
      if (it == edges.end()) continue;
      for (const std::string& next : it->second) {
        if (seen.insert(next).second) todo.push_back(next);
      }
    }
    return seen;
  }
  std::map<std::string, Terms> below_, above_;
};

std::string values(const std::string& var, const Terms& terms) {
  std::string out = " VALUES " + var + " {";
  for (const std::string& t : terms) out += " " + t;
  return out + " }";
}

std::string values(const std::string& first, const std::string& second, const Pairs& pairs) {
  std::string out = " VALUES (" + first + " " + second + ") {";
  for (const auto& [a, b] : pairs) out += " (" + a + " " + b + ")";
  return out + " }";
}

std::string unionOf(const std::vector<std::string>& groups) {
  std::string out;
  for (const std::string& g : groups) out += (out.empty() ? "" : " UNION ") + std::string("{ ") + g + " }";
  return out;
}

// The schema's entailments, as the alternatives of the patterns they add to.
class Entailments {
 public:
  explicit Entailments(const RdfsSchema& schema)
      : schema_(schema), classes_(schema.subClassOf), properties_(schema.subPropertyOf) {}

  // The alternatives that match `s p o` in the entailed graph, each a group
  // of a union, where the schema adds any; `k` numbers their invented
  // variables.
  std::optional<std::vector<std::string>> alternatives(const TriplePattern& t, size_t k) const {
    const std::string s = sparql::termText(t.subject), o = sparql::termText(t.object), n = std::to_string(k);
    if (t.predicate.kind == Term::Kind::Variable) return anyPredicate(s, sparql::termText(t.predicate), o, t.object, n);
    const std::string& p = t.predicate.value;
    if (p == kType) return typed(s, o, t.object, n);
    if ((p == kSubClassOf && !schema_.subClassOf.empty()) || (p == kSubPropertyOf && !schema_.subPropertyOf.empty())) {
      return std::vector<std::string>{s + " " + p + "+ " + o};  // rdfs11, rdfs5
    }
    const Terms below = properties_.below(p);  // rdfs7
    if (below.size() < 2) return std::nullopt;
    return std::vector<std::string>{s + " ?__rdfs_q" + n + " " + o + values("?__rdfs_q" + n, below)};
  }

 private:
  // `s rdf:type o`: stored, through subclasses (rdfs9), and through the
  // domains (rdfs2) and ranges (rdfs3) of properties and their subproperties.
  std::optional<std::vector<std::string>> typed(const std::string& s, const std::string& o, const Term& object,
                                                const std::string& n) const {
    const std::string t = "?__rdfs_t" + n, q = "?__rdfs_q" + n, x = "?__rdfs_x" + n;
    const std::string notLiteral = " FILTER(!isLiteral(" + s + "))";  // a literal is no subject
    std::vector<std::string> out;
    if (object.kind == Term::Kind::Constant) {
      const Terms types = classes_.below(object.value);
      const Terms byDomain = typing(schema_.domain, types), byRange = typing(schema_.range, types);
      if (types.size() < 2 && byDomain.empty() && byRange.empty()) return std::nullopt;
      out.push_back(s + " " + kType + " " + t + values(t, types));
      if (!byDomain.empty()) out.push_back(s + " " + q + " " + x + values(q, byDomain));
      if (!byRange.empty()) out.push_back(x + " " + q + " " + s + values(q, byRange) + notLiteral);
      return out;
    }
    const Pairs& subclasses = pairs(subclasses_, [&] { return classes_.properPairs(); });
    const Pairs& byDomain = pairs(byDomain_, [&] { return typingPairs(schema_.domain); });
    const Pairs& byRange = pairs(byRange_, [&] { return typingPairs(schema_.range); });
    if (subclasses.empty() && byDomain.empty() && byRange.empty()) return std::nullopt;
    out.push_back(s + " " + kType + " " + o);
    if (!subclasses.empty()) out.push_back(s + " " + kType + " " + t + values(t, o, subclasses));
    if (!byDomain.empty()) out.push_back(s + " " + q + " " + x + values(q, o, byDomain));
    if (!byRange.empty()) out.push_back(x + " " + q + " " + s + values(q, o, byRange) + notLiteral);
    return out;
  }

  // `s ?p o`: every triple above, each with its predicate bound.
  std::optional<std::vector<std::string>> anyPredicate(const std::string& s, const std::string& p, const std::string& o,
                                                       const Term& object, const std::string& n) const {
    if (schema_.empty()) return std::nullopt;
    std::vector<std::string> out{s + " " + p + " " + o};
    const std::string q = "?__rdfs_q" + n;
    if (const Pairs& sub = pairs(subproperties_, [&] { return properties_.properPairs(); }); !sub.empty()) {
      out.push_back(s + " " + q + " " + o + values(q, p, sub));
    }
    if (auto types = typed(s, o, object, n)) out.push_back(unionOf(*types) + " BIND(" + kType + " AS " + p + ")");
    for (const std::string& hierarchy : {kSubClassOf, kSubPropertyOf}) {
      out.push_back(s + " " + hierarchy + "+ " + o + " BIND(" + hierarchy + " AS " + p + ")");
    }
    return out;
  }

  // The properties (and their subproperties) whose domain or range (`side`) is
  // one of `types`.
  Terms typing(const Pairs& side, const Terms& types) const {
    Terms out;
    for (const auto& [property, type] : side) {
      if (types.contains(type)) out.merge(properties_.below(property));
    }
    return out;
  }
  // Every (property, class) where a triple of the property types its subject
  // (or object) with the class.
  Pairs typingPairs(const Pairs& side) const {
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& [property, type] : side) {
      for (const std::string& q : properties_.below(property)) {
        for (const std::string& c : classes_.above(type)) out.emplace(q, c);
        if (out.size() > kMostPairs) tooManyPairs();
      }
    }
    return {out.begin(), out.end()};
  }

  // The pairs `make` gives, made on their first use in a query and kept for its other patterns.
  template <typename Make>
  static const Pairs& pairs(std::optional<Pairs>& kept, Make make) {
    if (!kept) kept = make();
    return *kept;
  }

  const RdfsSchema& schema_;
  Hierarchy classes_, properties_;
  mutable std::optional<Pairs> subclasses_, subproperties_, byDomain_, byRange_;
};

class Rewriter {
 public:
  explicit Rewriter(const RdfsSchema& schema) : entailments_(schema) {}

  OpPtr rewrite(const OpPtr& op) {
    if (!op || op->kind == Op::Kind::Service) return op;  // the endpoint entails what it does
    if (op->kind == Op::Kind::Bgp) return rewriteBgp(op);
    auto copy = std::make_shared<Op>(*op);
    bool changed = false;
    for (OpPtr& c : copy->children) {
      OpPtr rewritten = rewrite(c);
      changed |= rewritten != c;
      c = std::move(rewritten);
    }
    for (Expr& e : copy->exprs) changed |= rewrite(e);
    for (sparql::Binding& b : copy->bindings) changed |= rewrite(b.expr);
    return changed ? copy : op;
  }

 private:
  bool rewrite(Expr& e) {
    bool changed = false;
    if (e.pattern) {
      OpPtr rewritten = rewrite(e.pattern);
      changed = rewritten != e.pattern;
      e.pattern = std::move(rewritten);
    }
    for (Expr& a : e.args) changed |= rewrite(a);
    return changed;
  }

  // A blank node of the BGP as a variable, so that the parts it is split
  // into still join on it; the BGP's projection drops them again.
  Term named(const Term& t, std::map<std::string, std::string>& blanks) {
    if (t.kind != Term::Kind::Blank) return t;
    auto [it, added] = blanks.emplace(t.value, "");
    if (added) it->second = "__rdfs_b" + std::to_string(counter_++);
    return Term::variable(it->second);
  }

  OpPtr rewriteBgp(const OpPtr& bgp) {
    std::map<std::string, std::string> blanks;
    std::vector<TriplePattern> rest;
    OpPtr out;
    for (const TriplePattern& original : bgp->triples) {
      TriplePattern t = original;
      for (Term* end : {&t.subject, &t.predicate, &t.object}) *end = named(*end, blanks);
      try {
        if (auto alternatives = entailments_.alternatives(t, counter_++)) {
          out = sparql::joined(std::move(out), sparql::distinctMatches(t, unionOf(*alternatives)));
          continue;
        }
      } catch (const sparql::SyntaxError&) {
        // A constant a query cannot spell: the pattern matches stored triples
        // only.
      }
      rest.push_back(std::move(t));
    }
    if (!out) return bgp;
    if (!rest.empty()) {
      auto kept = std::make_shared<Op>(*bgp);
      kept->triples = rest;
      kept->queryGraph = std::make_shared<sparql::QueryGraph>(sparql::QueryGraph::fromBgp(rest));
      out = sparql::joined(std::move(kept), std::move(out));
    }
    if (blanks.empty()) return out;
    auto project = std::make_shared<Op>();
    project->kind = Op::Kind::Project;
    project->pos = bgp->pos;
    project->vars = sparql::inScopeVariables(*bgp);
    project->children = {std::move(out)};
    return project;
  }

  Entailments entailments_;
  size_t counter_ = 0;
};

}  // namespace

OpPtr entailRdfs(const OpPtr& pattern, const RdfsSchema& schema) {
  if (schema.empty()) return pattern;
  return Rewriter(schema).rewrite(pattern);
}

}  // namespace gsparql::engine
