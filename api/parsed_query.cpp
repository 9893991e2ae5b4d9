#include <string>
#include <string_view>

#include "gsparql/error.h"
#include "gsparql/query.h"
#include "parser/parse.h"
#include "parser/print.h"
#include "parser/query_graph.h"

namespace gsparql {

std::string describeParsedQuery(std::string_view text) {
  sparql::Query query;
  try {
    query = sparql::parseQuery(text);
  } catch (const sparql::SyntaxError& e) {
    throw QueryError(e.what(), e.position().line, e.position().column);
  }
  std::string out = "algebra:\n" + sparql::algebraToString(query) + "\n";
  auto bgps = sparql::basicGraphPatterns(*query.pattern);
  for (std::size_t i = 0; i < bgps.size(); ++i) {
    const auto* bgp = bgps[i];
    out += "\nBGP " + std::to_string(i + 1) + " at " + std::to_string(bgp->pos.line) + ":" +
           std::to_string(bgp->pos.column) + ", " + std::to_string(bgp->triples.size()) + " triple pattern(s):\n" +
           sparql::queryGraphToString(sparql::QueryGraph::fromBgp(bgp->triples));
  }
  return out;
}

}  // namespace gsparql
