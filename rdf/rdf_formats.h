#pragma once
// The RDF syntaxes gsparql reads and writes, as one table: their names (for
// --format and format=), file extensions, media types, whether they hold
// named graphs, and whether the loader reads them and the graph writers write
// them. Everything that picks a syntax by name, extension or media type (the
// loader, `gsparql dump`, `gsparql query --format`, the server's content
// negotiation and Graph Store bodies) asks this table, so adding a syntax is
// one row here plus its reader or writer.
#include <optional>
#include <span>
#include <string_view>

#include "gsparql/load.h"
#include "gsparql/query.h"

namespace gsparql::rdf {

struct RdfSyntax {
  std::string_view name;        // the short name: "ttl"
  std::string_view title;       // for people: "Turtle"
  // Its name under http://www.w3.org/ns/formats/ (the service description's).
  std::string_view w3cFormat;
  std::string_view aliases;     // more names, space-separated: "turtle"
  std::string_view extensions;  // without the dot, space-separated: "ttl"
  // Space-separated; the first is the one a response's Content-Type names.
  std::string_view mediaTypes;
  bool namedGraphs;                          // holds quads (N-Quads, TriG)
  std::optional<RdfFormat> reader;           // the loader reads it
  std::optional<ResultFormat> writer;        // graph results and dumps are written in it
};

// In the server's order of preference for CONSTRUCT and DESCRIBE results.
std::span<const RdfSyntax> rdfSyntaxes();

// By name or alias ("nt", "ntriples", "n-triples", ...) or media type
// ("application/rdf+xml"), case-insensitively.
const RdfSyntax* rdfSyntaxByName(std::string_view nameOrMediaType);
// By a file's extension, ignoring a compression suffix (data.owl.gz).
const RdfSyntax* rdfSyntaxByFileName(std::string_view fileName);
const RdfSyntax* rdfSyntaxOf(RdfFormat reader);
const RdfSyntax* rdfSyntaxOf(ResultFormat writer);

// Whether `list` (space-separated words) holds `word`, case-insensitively.
bool listHolds(std::string_view list, std::string_view word);

}  // namespace gsparql::rdf
