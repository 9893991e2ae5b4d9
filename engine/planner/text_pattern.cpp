#include "engine/planner/text_pattern.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>
#include <utility>

#include "engine/logical/logical_plan.h"
#include "engine/planner/planner.h"
#include "engine/text/text_query.h"
#include "gsparql/error.h"
#include "parser/query_graph.h"
#include "rdf/term_parts.h"
#include "storage/graph_store.h"
#include "storage/named_graphs.h"

namespace gsparql::engine {

using sparql::Expr;
using sparql::Op;
using sparql::OpPtr;
using sparql::Term;
using sparql::TriplePattern;

namespace {

const std::string kFirst = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>";
const std::string kRest = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>";
const std::string kNil = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>";

[[noreturn]] void fail(const sparql::Position& pos, const std::string& message) {
  throw QueryError("text:query at " + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + message,
                   pos.line, pos.column);
}

// One text:query pattern, read.
struct TextPattern {
  Term subject;
  std::optional<std::string> score, literal;  // variables
  std::optional<std::string> predicate;       // IRI term
  std::string search;
  std::optional<uint64_t> limit;
  std::string language;  // lang:TAG
  sparql::Position pos;
};

// The BGP's triples, with the collections (`( a b )`: rdf:first/rdf:rest
// cells) the patterns read marked as used.
class PatternReader {
 public:
  static bool isString(const Term& t);

  explicit PatternReader(const std::vector<TriplePattern>& triples) : triples_(triples), used_(triples.size()) {}

  std::vector<TextPattern> read() {
    std::vector<TextPattern> patterns;
    for (size_t i = 0; i < triples_.size(); ++i) {
      const TriplePattern& t = triples_[i];
      if (!t.predicate.isConstant() || t.predicate.value != kTextQueryPredicate) continue;
      used_[i] = true;
      patterns.push_back(pattern(t));
    }
    return patterns;
  }

  std::vector<TriplePattern> rest() const {
    std::vector<TriplePattern> out;
    for (size_t i = 0; i < triples_.size(); ++i) {
      if (!used_[i]) out.push_back(triples_[i]);
    }
    return out;
  }

 private:
  TextPattern pattern(const TriplePattern& t) {
    TextPattern p;
    p.pos = t.pos;
    if (auto subjects = list(t.subject, t.pos)) {
      if (subjects->empty() || subjects->size() > 3) fail(t.pos, "the subject list is (?subject ?score ?literal), at most three");
      p.subject = (*subjects)[0];
      if (subjects->size() > 1) p.score = variable((*subjects)[1], t.pos, "the score");
      if (subjects->size() > 2) p.literal = variable((*subjects)[2], t.pos, "the literal");
    } else {
      p.subject = t.subject;
    }
    std::vector<Term> arguments = list(t.object, t.pos).value_or(std::vector<Term>{t.object});
    size_t at = 0;
    if (at < arguments.size() && arguments[at].isConstant() && rdf::termKind(arguments[at].value) == rdf::TermKind::Iri) {
      p.predicate = arguments[at++].value;
    }
    if (at >= arguments.size() || !isString(arguments[at])) fail(t.pos, "the search text must be a string");
    p.search = lexicalForm(arguments[at++]);
    if (at < arguments.size() && !isString(arguments[at])) p.limit = limit(arguments[at++], t.pos);
    if (at < arguments.size()) p.language = language(arguments[at++], t.pos);
    if (at < arguments.size()) fail(t.pos, "options after lang:TAG (highlight:, ...) are not supported");
    return p;
  }

  // "lang:TAG", Jena's option: a language tag's letters, digits and hyphens.
  static std::string language(const Term& t, const sparql::Position& pos) {
    const std::string option = isString(t) ? lexicalForm(t) : std::string();
    const std::string_view tag = std::string_view(option).substr(std::min<size_t>(option.size(), 5));
    const bool valid = option.starts_with("lang:") && !tag.empty() && tag.size() <= 64 &&
                       std::isalpha(static_cast<unsigned char>(tag[0])) &&
                       std::all_of(tag.begin(), tag.end(), [](unsigned char c) { return std::isalnum(c) || c == '-'; });
    if (!valid) {
      fail(pos, "after the search text and limit, only a language option \"lang:TAG\" (such as \"lang:en\") is supported");
    }
    return std::string(tag);
  }

  static std::string variable(const Term& t, const sparql::Position& pos, const std::string& what) {
    if (t.kind != Term::Kind::Variable) fail(pos, what + " must be a variable");
    return t.value;
  }


  static std::string lexicalForm(const Term& t) {
    rdf::TermSplitter splitter;
    return std::string(splitter.split(t.value).value);
  }

  static uint64_t limit(const Term& t, const sparql::Position& pos) {
    rdf::TermSplitter splitter;
    const rdf::TermParts& parts = t.isConstant() ? splitter.split(t.value) : rdf::TermParts{};
    uint64_t value = 0;
    const std::string_view digits = parts.value;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (parts.datatype != "http://www.w3.org/2001/XMLSchema#integer" || error != std::errc() ||
        end != digits.data() + digits.size() || value == 0) {
      fail(pos, "the limit after the search text must be a positive integer");
    }
    return value;
  }

  // The elements of the collection whose first cell is `head`; nullopt when
  // `head` is no collection of these triples.
  std::optional<std::vector<Term>> list(const Term& head, const sparql::Position& pos) {
    if (head.isConstant() && head.value == kNil) return std::vector<Term>{};
    if (head.kind != Term::Kind::Blank || !link(head, kFirst)) return std::nullopt;
    std::vector<Term> elements;
    for (Term cell = head; !(cell.isConstant() && cell.value == kNil);) {
      const auto first = link(cell, kFirst), rest = link(cell, kRest);
      if (!first || !rest || elements.size() >= triples_.size()) fail(pos, "a malformed list");
      used_[*first] = used_[*rest] = true;
      elements.push_back(triples_[*first].object);
      cell = triples_[*rest].object;
    }
    return elements;
  }

  std::optional<size_t> link(const Term& cell, const std::string& predicate) const {
    for (size_t i = 0; i < triples_.size(); ++i) {
      const TriplePattern& t = triples_[i];
      if (t.subject == cell && t.predicate.isConstant() && t.predicate.value == predicate) return i;
    }
    return std::nullopt;
  }

  const std::vector<TriplePattern>& triples_;
  std::vector<bool> used_;
};

// A simple or xsd:string literal.
bool PatternReader::isString(const Term& t) {
  if (!t.isConstant() || !t.value.starts_with("\"")) return false;
  rdf::TermSplitter splitter;
  const rdf::TermParts& parts = splitter.split(t.value);
  return parts.language.empty() && (parts.datatype.empty() || parts.datatype == "http://www.w3.org/2001/XMLSchema#string");
}


// Rewrites the BGPs of a tree, running each search once.
class Rewriter {
 public:
  Rewriter(const GraphStore& store, const QueryLimits& limits) : store_(store), stop_(limits) {}

  OpPtr op(const OpPtr& node) {
    if (node->kind == Op::Kind::Bgp) return bgp(node);
    if (node->kind == Op::Kind::Service) return node;  // sent to the endpoint as written
    auto copy = std::make_shared<Op>(*node);
    bool changed = false;
    for (OpPtr& child : copy->children) changed |= replace(child);
    for (Expr& e : copy->exprs) changed |= expr(e);
    for (auto* bindings : {&copy->bindings, &copy->aggregates}) {
      for (sparql::Binding& b : *bindings) changed |= expr(b.expr);
    }
    for (sparql::OrderKey& k : copy->order) changed |= expr(k.expr);
    return changed ? copy : node;
  }

  std::shared_ptr<const TextSearches> searches() { return std::make_shared<const TextSearches>(std::move(searches_)); }

 private:
  bool replace(OpPtr& node) {
    OpPtr rewritten = op(node);
    const bool changed = rewritten != node;
    node = std::move(rewritten);
    return changed;
  }

  // EXISTS patterns inside expressions.
  bool expr(Expr& e) {
    bool changed = e.pattern && replace(e.pattern);
    for (Expr& a : e.args) changed |= expr(a);
    return changed;
  }

  OpPtr bgp(const OpPtr& node) {
    PatternReader reader(node->triples);
    const std::vector<TextPattern> patterns = reader.read();
    if (patterns.empty()) return node;
    std::vector<TriplePattern> triples = reader.rest();
    const std::vector<TriplePattern> others = triples;
    std::vector<std::pair<const TextPattern*, std::string>> bound;
    for (const TextPattern& p : patterns) {
      const std::string n = std::to_string(++count_);
      const std::string literal = "text-literal-" + n;
      const Term predicate = p.predicate ? Term::constant(*p.predicate) : Term::variable("text-predicate-" + n);
      triples.push_back({p.subject, predicate, Term::variable(literal), p.pos});
      searches_[literal] = search(p);
      bound.emplace_back(&p, literal);
    }
    OpPtr result = bgpOf(std::move(triples), *node);
    for (const auto& [p, literal] : bound) {
      if (p->literal) result = bindLiteral(std::move(result), *p->literal, literal, others, p->pos);
      if (p->score) result = extend(std::move(result), *p->score, call(std::string(kTextScoreFunction), literal), p->pos);
    }
    return result;
  }

  // A limit counts the literals of the property named, as Jena's index
  // (a document per property value) does.
  text::TextMatches search(const TextPattern& p) {
    try {
      const text::TextNode query = text::parseTextQuery(p.search);
      text::TextSearch search{.limit = p.limit, .language = p.language, .keep = {}};
      std::vector<const PredicateAdjacency*> into;
      if (p.limit && p.predicate) {
        into = predicateIn(*p.predicate);
        search.keep = [&into](uint32_t literal) {
          return std::any_of(into.begin(), into.end(), [&](const auto* a) { return !a->neighbours(literal).empty(); });
        };
      }
      return text::searchText(query, store_, search, stop_);
    } catch (const text::TextQueryError& e) {
      fail(p.pos, std::string(e.what()) + " (at character " + std::to_string(e.offset + 1) + " of the search text)");
    }
  }

  // The incoming adjacency of `predicate` in every graph.
  std::vector<const PredicateAdjacency*> predicateIn(const std::string& predicate) const {
    std::vector<const PredicateAdjacency*> out;
    const AdjacencyFile& in = store_.adjacency(pcsr::Direction::In);
    for (uint32_t p = 0; p < in.predicateCount(); ++p) {
      if (splitGraphPredicateKey(store_.dictionary().term(TermSpace::Predicate, p)).predicate == predicate) {
        out.push_back(&in.predicate(p));
      }
    }
    return out;
  }

  // The user's literal variable: the invented one's value, or, where the
  // BGP's other triples bind it too, the rows where both are the same term.
  static OpPtr bindLiteral(OpPtr input, const std::string& variable, const std::string& literal,
                           const std::vector<TriplePattern>& others, const sparql::Position& pos) {
    const Term v = Term::variable(variable);
    const bool boundByOthers = std::any_of(others.begin(), others.end(), [&](const TriplePattern& t) {
      return t.subject == v || t.predicate == v || t.object == v;
    });
    if (!boundByOthers) return extend(std::move(input), variable, termExpr(Term::variable(literal)), pos);
    auto filter = std::make_shared<Op>();
    filter->kind = Op::Kind::Filter;
    filter->pos = pos;
    filter->children = {std::move(input)};
    Expr same = call("SAMETERM", literal);
    same.kind = Expr::Kind::Call;
    same.args.insert(same.args.begin(), termExpr(v));
    filter->exprs = {std::move(same)};
    return filter;
  }

  static Expr termExpr(Term t) {
    Expr e;
    e.kind = Expr::Kind::Term;
    e.term = std::move(t);
    return e;
  }

  static Expr call(std::string name, const std::string& literal) {
    Expr e;
    e.kind = Expr::Kind::Function;
    e.name = std::move(name);
    e.args = {termExpr(Term::variable(literal))};
    return e;
  }

  static OpPtr extend(OpPtr input, const std::string& variable, Expr value, const sparql::Position& pos) {
    auto node = std::make_shared<Op>();
    node->kind = Op::Kind::Extend;
    node->pos = pos;
    node->children = {std::move(input)};
    node->bindings = {{variable, std::move(value)}};
    return node;
  }

  const GraphStore& store_;
  StopCheck stop_;
  TextSearches searches_;
  unsigned count_ = 0;
};

bool hasTextPattern(const Op& root) {
  for (const Op* bgp : sparql::basicGraphPatterns(root)) {
    for (const TriplePattern& t : bgp->triples) {
      if (t.predicate.isConstant() && t.predicate.value == kTextQueryPredicate) return true;
    }
  }
  return false;
}

}  // namespace

TextRewrite rewriteTextSearches(const OpPtr& root, const GraphStore& store, const QueryLimits& limits) {
  if (!hasTextPattern(*root)) return {root, std::make_shared<const TextSearches>()};
  Rewriter rewriter(store, limits);
  OpPtr rewritten = rewriter.op(root);
  return {std::move(rewritten), rewriter.searches()};
}

namespace {

// Whether `e` is a plain string literal (PatternReader::isString) whose text holds none of `characters`.
bool isStringWithout(const Expr& e, std::string_view characters) {
  if (e.kind != Expr::Kind::Term || !PatternReader::isString(e.term)) return false;
  rdf::TermSplitter splitter;
  return splitter.split(e.term.value).value.find_first_of(characters) == std::string_view::npos;
}

// The arguments of CONTAINS(text, part) or STRSTARTS(text, part), or of a
// REGEX(text, part) whose flags, if any, leave case alone (no "i": "ſ"
// matches "s"), with the part's anchors ("^abc$") taken off.
std::optional<std::pair<const Expr*, std::string>> substringArguments(const Expr& e) {
  if (e.kind != Expr::Kind::Call) return std::nullopt;
  const bool regex = e.name == "REGEX" && (e.args.size() == 2 || (e.args.size() == 3 && isStringWithout(e.args[2], "iI")));
  if (!regex && ((e.name != "CONTAINS" && e.name != "STRSTARTS") || e.args.size() != 2)) return std::nullopt;
  const Expr& part = e.args[1];
  if (part.kind != Expr::Kind::Term || !PatternReader::isString(part.term)) return std::nullopt;
  rdf::TermSplitter splitter;
  std::string text(splitter.split(part.term.value).value);
  if (regex && text.starts_with('^')) text.erase(0, 1);
  if (regex && text.ends_with('$')) text.pop_back();
  return std::pair{&e.args[0], std::move(text)};
}

}  // namespace

std::optional<SubstringCondition> substringCondition(const Expr& e) {
  auto arguments = substringArguments(e);
  if (!arguments) return std::nullopt;
  const Expr* text = arguments->first;
  // LCASE maps no character outside ASCII to an ASCII letter that the index's
  // lower case does not (UCASE does: "ß" is "SS"), so only LCASE is looked through.
  if (text->kind == Expr::Kind::Call && text->name == "LCASE" && text->args.size() == 1) text = &text->args[0];
  if (text->kind != Expr::Kind::Term || text->term.kind != Term::Kind::Variable) return std::nullopt;
  std::string lower = std::move(arguments->second);
  if (lower.size() < 3 || !std::all_of(lower.begin(), lower.end(), [](unsigned char c) { return std::isalnum(c) && c < 128; })) {
    return std::nullopt;
  }
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return SubstringCondition{text->term.value, std::move(lower)};
}

bool hasTextVariable(const Op& bgp, const TextSearches& searches) {
  return std::any_of(bgp.triples.begin(), bgp.triples.end(), [&](const TriplePattern& t) {
    return t.object.kind == Term::Kind::Variable && searches.contains(t.object.value);
  });
}

}  // namespace gsparql::engine
