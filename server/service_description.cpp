#include "server/service_description.h"

#include <vector>

#include "rdf/rdf_formats.h"

namespace gsparql::server {
namespace {

const std::string kSd = "http://www.w3.org/ns/sparql-service-description#";
const std::string kFormats = "http://www.w3.org/ns/formats/";
const std::string kType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";

std::string iri(const std::string& text) { return "<" + text + ">"; }
std::string sd(const std::string& name) { return iri(kSd + name); }
std::string format(const std::string& name) { return iri(kFormats + name); }

// What the endpoint answers in (content_negotiation.h): the solution
// formats, and the RDF syntaxes graphs are written in (rdf/rdf_formats.h).
const std::vector<std::string> kSolutionFormats{"SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV",
                                                 "SPARQL_Results_TSV"};

}  // namespace

std::string describeService(const ServiceFacts& facts) {
  const std::string service = "_:service", dataset = "_:dataset", graph = "_:defaultGraph";
  std::string text;
  auto triple = [&](const std::string& s, const std::string& p, const std::string& o) {
    text += s + " " + p + " " + o + " .\n";
  };
  triple(service, kType, sd("Service"));
  triple(service, sd("endpoint"), iri(facts.endpoint));
  triple(service, sd("supportedLanguage"), sd("SPARQL10Query"));
  triple(service, sd("supportedLanguage"), sd("SPARQL11Query"));
  if (facts.updates) triple(service, sd("supportedLanguage"), sd("SPARQL11Update"));
  for (const std::string& name : kSolutionFormats) triple(service, sd("resultFormat"), format(name));
  for (const rdf::RdfSyntax& syntax : rdf::rdfSyntaxes()) {
    if (syntax.writer) triple(service, sd("resultFormat"), format(std::string(syntax.w3cFormat)));
    // What LOAD and the Graph Store read.
    if (facts.updates && syntax.reader) triple(service, sd("inputFormat"), format(std::string(syntax.w3cFormat)));
  }
  if (facts.unionDefaultGraph) triple(service, sd("feature"), sd("UnionDefaultGraph"));
  triple(service, sd("defaultDataset"), dataset);
  triple(dataset, kType, sd("Dataset"));
  triple(dataset, sd("defaultGraph"), graph);
  triple(graph, kType, sd("Graph"));
  return text;
}

}  // namespace gsparql::server
