#pragma once
// Text search in a query: Jena's property function
//   ?s text:query (rdfs:label "search text" 10)
//   (?s ?score ?literal) text:query (rdfs:label "search text")
// with text: = <http://jena.apache.org/text#>, read out of the BGPs before
// planning. Each one is searched in the text index once
// (engine/text/text_search.h) and becomes an edge like any other,
// `?s rdfs:label ?text-literal-N` (any predicate where none is named), whose
// invented literal variable the BGP ranges over the matching literals: the
// optimizer orders it with the rest, the executors join it. The literal and
// the score, where asked for, are bound above the BGP from that variable
// (the score by a call of kTextScoreFunction, which the planner runs as a
// TextScore operator).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/bgp/query_limits.h"
#include "engine/text/text_search.h"
#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

inline constexpr std::string_view kTextQueryPredicate = "<http://jena.apache.org/text#query>";
// What `?score` is bound to: this function of the invented literal variable.
inline constexpr std::string_view kTextScoreFunction = "<urn:gsparql:text-score>";

// The literals each search matched, by its invented literal variable (a
// name no query can write: `text-literal-1`).
using TextSearches = std::map<std::string, text::TextMatches, std::less<>>;

struct TextRewrite {
  sparql::OpPtr root;
  std::shared_ptr<const TextSearches> searches;  // empty: the query has no text search
};

// `root` with its text:query patterns rewritten and searched; `root` itself
// where it has none. Throws QueryError (with the pattern's position) for a
// malformed pattern or search text.
TextRewrite rewriteTextSearches(const sparql::OpPtr& root, const GraphStore& store, const QueryLimits& limits);

// A condition the text index can narrow: CONTAINS or STRSTARTS of a
// variable (or of its LCASE) and a string of ASCII letters and digits, at
// least three, or REGEX of the same as its pattern (anchored or not, with no
// "i" flag): the variable and the string in lower case. Every literal it
// holds for has a word holding that string (literalsWithWordsHolding), so
// limiting the variable to those literals, the condition still applied,
// keeps every row.
struct SubstringCondition {
  std::string variable;
  std::string part;
};
std::optional<SubstringCondition> substringCondition(const sparql::Expr& e);

// Whether `bgp` has a variable a text search limits (the planner's special
// ways of running one pattern must not ignore that limit).
bool hasTextVariable(const sparql::Op& bgp, const TextSearches& searches);

}  // namespace gsparql::engine
