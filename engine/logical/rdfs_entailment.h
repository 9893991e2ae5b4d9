#pragma once
// RDFS entailment (SPARQL 1.1 Entailment Regimes, section 4) as a rewrite of
// the algebra, asked for with QueryOptions::entailment: a triple pattern
// also matches the triples that the schema's rdfs:subClassOf,
// rdfs:subPropertyOf, rdfs:domain and rdfs:range entail (rules rdfs2, rdfs3,
// rdfs5, rdfs7, rdfs9 and rdfs11), with the schema read from the query's
// default graph before planning. Each pattern the schema can entail more of
// becomes the DISTINCT union of what entails it, joined with the rest of its
// BGP: an entailed triple is one triple however many ways entail it, so a
// BGP's solutions are distinct as over a stored graph. For example, with
// `:Poi rdfs:subClassOf geo:Feature` and `:hasExact rdfs:subPropertyOf
// geo:hasGeometry`,
//
//   ?f a geo:Feature           ->  SELECT DISTINCT ?f { ?f a ?t VALUES ?t {
//   geo:Feature :Poi } } ?f geo:hasGeometry ?g      ->  SELECT DISTINCT ?f ?g {
//   ?f ?p ?g VALUES ?p { geo:hasGeometry :hasExact } }
//
// (with invented variables), and the domains and ranges of properties as
// further alternatives of a type. The rest of RDFS's rules (every resource
// an rdfs:Resource, every class its own subclass, the axiomatic triples,
// literals' datatypes) are not applied: they add triples about the
// vocabulary, not the data (docs/engine.md#rdfs-entailment).
#include <string>
#include <utility>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::engine {

// The schema's triples, as term texts (rdf/term.h form): [subject, object].
struct RdfsSchema {
  std::vector<std::pair<std::string, std::string>> subClassOf, subPropertyOf, domain, range;
  bool empty() const { return subClassOf.empty() && subPropertyOf.empty() && domain.empty() && range.empty(); }
};

inline constexpr const char* kRdfsSchemaQuery =
    "SELECT ?s ?p ?o WHERE { ?s ?p ?o VALUES ?p { "
    "<http://www.w3.org/2000/01/rdf-schema#subClassOf> "
    "<http://www.w3.org/2000/01/rdf-schema#subPropertyOf> "
    "<http://www.w3.org/2000/01/rdf-schema#domain> "
    "<http://www.w3.org/2000/01/rdf-schema#range> } FILTER(isIRI(?s) && "
    "isIRI(?o)) }";

// `pattern` with every triple pattern the schema entails more of rewritten
// (inside EXISTS too); the same pointer where there is none.
sparql::OpPtr entailRdfs(const sparql::OpPtr& pattern, const RdfsSchema& schema);

}  // namespace gsparql::engine
