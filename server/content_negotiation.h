#pragma once
// Picks the result format from the Accept header (with q-values) or the
// format= parameter, once the query's form is known.
#include <optional>
#include <string>
#include <vector>

#include "gsparql/query.h"

namespace gsparql::server {

struct NegotiatedFormat {
  ResultFormat format;
  std::string mediaType;  // what the response's Content-Type says
};

class ContentNegotiation {
 public:
  // `accept`: the Accept header (empty: anything); `formatParameter`: a
  // format name (json, xml, csv, tsv, nt, ttl, nq, trig, rdfxml) or a media type, which
  // replaces the Accept header.
  ContentNegotiation(const std::string& accept, const std::optional<std::string>& formatParameter);

  // The most acceptable format for results of `form`; ties go to the
  // server's order (JSON, XML, CSV, TSV; for graphs rdf/rdf_formats.h's:
  // Turtle, N-Triples, N-Quads, TriG, RDF/XML). Throws
  // HttpError 406 when none is acceptable.
  NegotiatedFormat choose(QueryForm form) const;

 private:
  struct Range {
    std::string type;     // "text", or "*"
    std::string subtype;  // "csv", or "*"
    double q = 1;
  };
  double qualityOf(const std::string& mediaType) const;

  std::vector<Range> ranges_;
  std::string asked_;  // for the 406 message
};

}  // namespace gsparql::server
