#include "api/request_options.h"

#include <string>
#include <vector>

#include "api/parsed_query_cache.h"
#include "engine/geo/query_rewrite.h"
#include "gsparql/error.h"
#include "parser/parse.h"
#include "rdf/iri.h"

namespace gsparql {
namespace {

template <typename Parsed>
Parsed parse(Parsed (*parser)(std::string_view, const sparql::ParseOptions&), std::string_view text,
             const QueryOptions& options) {
  try {
    return parser(text, {.base = options.baseIri});
  } catch (const sparql::SyntaxError& e) {
    throw QueryError(e.what(), e.position().line, e.position().column);
  }
}

// Absolute IRIs as N-Triples terms; a QueryError names one that is not.
std::vector<std::string> graphTerms(const std::vector<std::string>& iris) {
  std::vector<std::string> terms;
  for (const std::string& iri : iris) {
    auto term = rdf::absoluteIriTerm(iri);
    if (!term) throw QueryError("a graph of the dataset must be an absolute IRI, not '" + iri + "'");
    terms.push_back(std::move(*term));
  }
  return terms;
}

bool namesDataset(const QueryOptions& options) {
  return !options.defaultGraphs.empty() || !options.namedGraphs.empty();
}

}  // namespace

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The query, with the dataset of the options in place of its FROM and FROM NAMED.
std::shared_ptr<const sparql::Query> parseQuery(std::string_view text, const QueryOptions& options) {
  // Never destroyed: a thread may still parse while the process exits.
  static ParsedQueryCache& cache = *new ParsedQueryCache;
  std::shared_ptr<const sparql::Query> parsed =
      cache.get(options.baseIri, text, [&] { return parse(&sparql::parseQuery, text, options); });
  // After the cache, which holds the query as written whichever the option.
  sparql::OpPtr pattern = options.geosparqlRewrite ? engine::geo::rewriteSpatialPredicates(parsed->pattern) : parsed->pattern;
  if (!namesDataset(options) && pattern == parsed->pattern) return parsed;
  auto query = std::make_shared<sparql::Query>(*parsed);  // shares the algebra, which it leaves as it is
  query->pattern = pattern;
  if (!namesDataset(options)) return query;
  query->fromGraphs = graphTerms(options.defaultGraphs);
  query->fromNamedGraphs = graphTerms(options.namedGraphs);
  return query;
}

// The request, with the dataset of the options as the USING and USING
// NAMED of each operation that has a pattern (SPARQL 1.1 Protocol 2.2.3).
sparql::UpdateRequest parseUpdateRequest(std::string_view text, const QueryOptions& options) {
  sparql::UpdateRequest request = parse(&sparql::parseUpdate, text, options);
  if (!namesDataset(options)) return request;
  for (auto& op : request.operations) {
    if (!op.hasPattern()) continue;
    if (!op.with.empty() || !op.usingGraphs.empty() || !op.usingNamedGraphs.empty()) {
      throw QueryError("an operation with USING or WITH cannot also take the dataset of the request's parameters",
                       op.pos.line, op.pos.column);
    }
    op.usingGraphs = graphTerms(options.defaultGraphs);
    op.usingNamedGraphs = graphTerms(options.namedGraphs);
  }
  return request;
}

engine::QueryRequest requestFrom(const QueryOptions& options, Clock::time_point start) {
  engine::QueryRequest request;
  engine::QueryLimits& limits = request.run.limits;
  limits.cancel = options.cancel;
  if (options.timeout) {
    limits.deadline = start + *options.timeout;
    limits.timeoutSeconds = std::chrono::duration<double>(*options.timeout).count();
  }
  limits.memoryBudgetBytes = options.memoryBudgetBytes ? options.memoryBudgetBytes : defaultMemoryBudgetBytes();
  request.run.injective = options.semantics == Semantics::Isomorphism;
  request.run.stepTimes = options.stepTimes;
  request.run.service = options.service;
  request.unionDefaultGraph = options.unionDefaultGraph;
  request.rdfsEntailment = options.entailment == Entailment::Rdfs;
  return request;
}

}  // namespace gsparql
