#pragma once
// The RDF document of a Graph Store write (graph_store.h): read in the
// format its Content-Type names, relative IRIs resolved against a base, and
// written as N-Triples to a private file for the update's LOAD to read. A
// body that does not parse is refused here, before any update starts.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gsparql/load.h"

namespace gsparql::server {

// The format of a media type the loader reads (in any case, without
// parameters): Turtle, N-Triples, N-Quads, TriG, RDF/XML (rdf/rdf_formats.h);
// nullopt for any other.
std::optional<RdfFormat> rdfFormatOfMediaType(const std::string& mediaType);

// One RDF document of a request: its body, or a part of a multipart body.
struct RdfDocument {
  std::string_view content;
  std::string mediaType;  // without parameters
};

// A body's triples in a private temp file (mode 0600), removed with this object.
class TriplesFile {
 public:
  // Throws HttpError: 415 for a media type the loader does not read; 400
  // for a body that does not parse (the message with its line:column) and
  // for a statement of a named graph (N-Quads, TriG: a request sends one
  // graph's triples, those of the document's default graph). The blank
  // nodes of each document are its own.
  TriplesFile(const std::vector<RdfDocument>& documents, const std::string& baseIri);
  ~TriplesFile();
  TriplesFile(const TriplesFile&) = delete;
  TriplesFile& operator=(const TriplesFile&) = delete;

  const std::filesystem::path& path() const { return path_; }
  uint64_t triples() const { return triples_; }

 private:
  std::filesystem::path path_;
  uint64_t triples_ = 0;
};

}  // namespace gsparql::server
