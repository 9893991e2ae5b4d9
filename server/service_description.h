#pragma once
// SPARQL 1.1 Service Description: the RDF a GET on the endpoint without a
// query returns (https://www.w3.org/TR/sparql11-service-description/): the
// endpoint, the languages, the result formats and features of this server.
#include <string>

namespace gsparql::server {

struct ServiceFacts {
  std::string endpoint;            // the endpoint's absolute URL, as the client reached it
  bool updates = false;            // SPARQL 1.1 Update is accepted (from someone)
  bool unionDefaultGraph = false;  // the default graph is the union of the named graphs
};

// As N-Triples, which is Turtle too: either media type may be served.
std::string describeService(const ServiceFacts& facts);

}  // namespace gsparql::server
