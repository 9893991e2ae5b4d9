#pragma once
// SPARQL 1.1 Update requests (W3C SPARQL 1.1 Update, section 3) as plain
// data, produced by parseUpdate() and read by the engine. Every operation
// that changes triples is a DELETE template, an INSERT template and the
// pattern that instantiates them; the *DATA forms have ground templates and
// no pattern.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::sparql {

// The graph an operation names.
struct GraphTarget {
  enum class Kind : std::uint8_t { Default, Named, AllNamed, All };
  Kind kind = Kind::Default;
  std::string iri;  // Named: "<iri>"
};

// A triple of quad data or of a template with the graph it belongs to:
// `GRAPH <g> { ... }` or, with graph.value empty, the default graph.
struct Quad {
  TriplePattern triple;
  Term graph;
  bool inDefaultGraph() const { return graph.value.empty(); }
};

struct UpdateOperation {
  enum class Kind : std::uint8_t {
    InsertData, DeleteData, DeleteWhere, Modify, Load, Clear, Drop, Create, Add, Move, Copy
  };
  Kind kind = Kind::InsertData;
  Position pos;  // of the first keyword
  bool silent = false;
  std::vector<Quad> deleteQuads;  // DeleteData, DeleteWhere, Modify
  std::vector<Quad> insertQuads;  // InsertData, Modify
  OpPtr where;                    // Modify; DeleteWhere: its template as a pattern
  std::string with;               // Modify: WITH <iri>, empty without
  std::vector<std::string> usingGraphs, usingNamedGraphs;  // Modify: USING [NAMED] <iri>
  std::string source;             // Load: the IRI, "<...>"
  GraphTarget target;             // Load INTO, Clear, Drop, Create; Add, Move, Copy: the destination
  GraphTarget from;               // Add, Move, Copy: the source

  bool hasPattern() const { return where != nullptr; }
};

struct UpdateRequest {
  std::vector<UpdateOperation> operations;  // in the order they apply
  // PREFIX declarations of all prologues, as in Query.
  std::vector<std::pair<std::string, std::string>> prefixes;
};

}  // namespace gsparql::sparql
