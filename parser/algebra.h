#pragma once
// The SPARQL algebra (W3C SPARQL 1.1, section 18) as plain data, produced by
// parseQuery() and read by the engine. No ANTLR type appears here.
//
// Constants are strings in the rdf/term.h form (`<iri>`, `"lex"^^<dt>`, ...)
// so the engine can look them up in the dictionary without conversion.
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace gsparql::sparql {

// 1-based line and column (columns count Unicode code points) of the first
// token of a construct; lets the engine say "OPTIONAL at 3:5 is not supported".
struct Position {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool operator==(const Position&) const = default;
};

// A node of a triple pattern. Blank nodes in patterns behave as variables that
// cannot be projected; anonymous ones (`[]`, collections) get fresh labels.
struct Term {
  enum class Kind : std::uint8_t { Variable, Blank, Constant };
  Kind kind = Kind::Constant;
  std::string value;  // variable name without '?', blank label without "_:", or the constant

  static Term variable(std::string name) { return {Kind::Variable, std::move(name)}; }
  static Term blank(std::string label) { return {Kind::Blank, std::move(label)}; }
  static Term constant(std::string term) { return {Kind::Constant, std::move(term)}; }
  bool isConstant() const { return kind == Kind::Constant; }
  bool operator==(const Term&) const = default;
  auto operator<=>(const Term&) const = default;
};

struct TriplePattern {
  Term subject, predicate, object;
  Position pos;
  // Two patterns are the same pattern whatever their position.
  bool sameAs(const TriplePattern& o) const {
    return subject == o.subject && predicate == o.predicate && object == o.object;
  }
};

// A property path that is not a plain predicate after the section 18.2.2.4
// rewriting (sequences and inverses of links become triples with fresh variables).
struct Path {
  enum class Kind : std::uint8_t {
    Link, Inverse, Sequence, Alternative, ZeroOrMore, OneOrMore, ZeroOrOne, NegatedSet
  };
  Kind kind = Kind::Link;
  std::string iri;        // Link: the predicate, e.g. "<http://x/p>"
  std::vector<Path> args; // Inverse and modifiers: 1; Sequence, Alternative: >= 2;
                          // NegatedSet: Link or Inverse(Link) items (may be empty)
  bool operator==(const Path&) const = default;
};

struct Op;
using OpPtr = std::shared_ptr<const Op>;
class QueryGraph;  // parser/query_graph.h

// An expression. Operators and built-ins are calls by name: "||", "&&", "=",
// "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "!", "UPLUS", "UMINUS", "IN",
// "NOT IN", and the upper-case built-in names ("REGEX", "BOUND", ...).
struct Expr {
  enum class Kind : std::uint8_t { Term, Call, Function, Aggregate, Exists, NotExists };
  Kind kind = Kind::Term;
  Term term;                // Term: a variable or a constant
  std::string name;         // Call: operator/built-in; Function: IRI term; Aggregate: COUNT, SUM, ...
  std::vector<Expr> args;
  bool distinct = false;    // Aggregate, Function: DISTINCT
  bool star = false;        // COUNT(*)
  std::optional<std::string> separator;  // GROUP_CONCAT, decoded
  OpPtr pattern;            // Exists, NotExists
  Position pos;
};

struct Binding {
  std::string var;  // empty for a GROUP BY expression without AS
  Expr expr;
};

struct OrderKey {
  Expr expr;
  bool descending = false;
};

// VALUES data; a missing cell (UNDEF) is nullopt.
struct Table {
  std::vector<std::string> vars;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

// One algebra operator. Plain data with a kind tag; each kind reads only the
// fields listed beside it, so executors and printers can switch on `kind`.
struct Op {
  enum class Kind : std::uint8_t {
    Bgp,       // triples (empty: the join identity), queryGraph
    Path,      // subject, path, object
    Join,      // children[0], children[1]
    LeftJoin,  // children[0], children[1], exprs (conjunction; empty = true)
    Union,     // children[0], children[1]
    Minus,     // children[0], children[1]
    Filter,    // children[0], exprs (conjunction)
    Extend,    // children[0], bindings[0]
    Graph,     // children[0], graph
    Service,   // children[0], graph (the endpoint), silent
    Values,    // table
    Group,     // children[0], bindings (keys), aggregates (fresh variable := aggregate)
    OrderBy,   // children[0], order
    Project,   // children[0], vars
    Distinct,  // children[0]
    Reduced,   // children[0]
    Slice,     // children[0], offset, limit
  };
  Kind kind = Kind::Bgp;
  Position pos;
  std::vector<OpPtr> children;
  std::vector<TriplePattern> triples;
  std::shared_ptr<const QueryGraph> queryGraph;  // Bgp: the triples as a labelled query graph
  Term subject, object;
  Path path;
  std::vector<Expr> exprs;
  std::vector<Binding> bindings;
  std::vector<Binding> aggregates;
  std::vector<OrderKey> order;
  std::vector<std::string> vars;
  Term graph;
  bool silent = false;
  Table table;
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> limit;
  // SPARQL 1.2, for the printer only: the variables the parser invented for
  // triple terms and for blank nodes inside them, and the text each stands
  // for (`<<( ?s <p> ?o )>>`, `_:b`). On the Filter that takes a pattern's
  // triple terms apart (with the `sugarExtends` Extends right below it that
  // bind their parts), and on the Extends that build a template's.
  std::vector<std::pair<std::string, std::string>> printedAs;
  unsigned sugarExtends = 0;
  // On the Join of a BGP's parts that no variable links: the BGP as written.
  std::vector<TriplePattern> printedBgp;
};

struct Query {
  enum class Form : std::uint8_t { Select, Construct, Ask, Describe };
  Form form = Form::Select;
  Position pos;                               // of the query keyword
  OpPtr pattern;                              // WHERE clause with all solution modifiers
  std::vector<TriplePattern> constructTemplate;
  bool constructWhere = false;                // CONSTRUCT WHERE: the template is also the pattern
  std::vector<Term> describeTerms;            // empty with DESCRIBE *
  std::vector<std::string> fromGraphs;        // FROM <g>
  std::vector<std::string> fromNamedGraphs;   // FROM NAMED <g>
  // PREFIX declarations: "ex" (for ex:) -> namespace IRI (for output that abbreviates IRIs).
  std::vector<std::pair<std::string, std::string>> prefixes;
  std::string base;  // BASE, for IRI() of relative IRIs; empty without one
};

// Whether a function IRI (an IRI term, `<...>`) names an aggregate beyond
// SPARQL's own (section 18.5): GeoSPARQL 1.1's aggBoundingBox,
// aggBoundingCircle, aggCentroid, aggConvexHull and aggUnion (evaluated in
// engine/expr/geo.cpp). A call of one is an Expr::Kind::Aggregate named by
// the IRI term, placed in the algebra as COUNT is (section 18.2.4.1).
bool isExtensionAggregate(std::string_view iri);

// Variables in scope for the solutions of `op` (section 18.2.1), in order of
// first appearance; blank nodes are not included.
std::vector<std::string> inScopeVariables(const Op& op);

}  // namespace gsparql::sparql
