#include "server/service_description.h"

#include <vector>

namespace gsparql::server {
namespace {

const std::string kSd = "http://www.w3.org/ns/sparql-service-description#";
const std::string kFormats = "http://www.w3.org/ns/formats/";
const std::string kType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";

std::string iri(const std::string& text) { return "<" + text + ">"; }
std::string sd(const std::string& name) { return iri(kSd + name); }
std::string format(const std::string& name) { return iri(kFormats + name); }

// What the endpoint answers in (content_negotiation.h) and, for LOAD, reads.
const std::vector<std::string> kResultFormats{"SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV",
                                               "SPARQL_Results_TSV", "Turtle", "N-Triples"};
const std::vector<std::string> kInputFormats{"N-Triples", "Turtle", "N-Quads", "TriG"};

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
  for (const std::string& name : kResultFormats) triple(service, sd("resultFormat"), format(name));
  if (facts.updates) {
    for (const std::string& name : kInputFormats) triple(service, sd("inputFormat"), format(name));
  }
  if (facts.unionDefaultGraph) triple(service, sd("feature"), sd("UnionDefaultGraph"));
  triple(service, sd("defaultDataset"), dataset);
  triple(dataset, kType, sd("Dataset"));
  triple(dataset, sd("defaultGraph"), graph);
  triple(graph, kType, sd("Graph"));
  return text;
}

}  // namespace gsparql::server
