#include "server/graph_store_body.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "gsparql/error.h"
#include "loaders/input_stream.h"
#include "loaders/rdf_reader.h"
#include "rdf/rdf_formats.h"
#include "server/http_error.h"

namespace gsparql::server {
namespace {

// The 415 message: the media types of every syntax the loader reads.
std::string readableMediaTypes() {
  std::string list;
  for (const rdf::RdfSyntax& syntax : rdf::rdfSyntaxes()) {
    if (!syntax.reader) continue;
    if (!list.empty()) list += ", ";
    list += std::string(syntax.title) + " (" + std::string(syntax.mediaTypes.substr(0, syntax.mediaTypes.find(' '))) + ")";
  }
  return list;
}

RdfFormat formatOf(const std::string& mediaType) {
  if (auto format = rdfFormatOfMediaType(mediaType)) return *format;
  throw HttpError(415, "the Graph Store reads " + readableMediaTypes() + ", not '" + mediaType + "'");
}

struct NTriples {
  std::string text;
  uint64_t triples = 0;
};

// A term with its blank node label, if any, moved into the document's own
// space: "_:b1" of the second document is "_:d2_b1".
void appendTerm(std::string& out, std::string_view term, const std::string& blankPrefix) {
  if (term.starts_with("_:")) {
    out.append("_:").append(blankPrefix).append(term.substr(2));
    return;
  }
  out.append(term);
}

// The document's triples as N-Triples lines: absolute IRIs only, so that
// the file's own location is no base for anything.
void appendNTriples(NTriples& out, const RdfDocument& document, const std::string& baseIri, const std::string& blankPrefix) {
  const RdfFormat format = formatOf(document.mediaType);
  const std::string body(document.content);
  MemoryInput input(body);
  RdfReadOptions options;
  options.baseIri = baseIri;
  try {
    readRdf(input, "the request body", format, [&](const RdfStatementView& s) {
      if (!s.graph.empty()) {
        throw HttpError(400, "the request body has a statement in graph " + std::string(s.graph) +
                                 ": a Graph Store request sends the triples of one graph");
      }
      appendTerm(out.text, s.subject, blankPrefix);
      out.text.append(" ").append(s.predicate).append(" ");
      appendTerm(out.text, s.object, blankPrefix);
      out.text.append(" .\n");
      ++out.triples;
    }, options);
  } catch (const LoadError& e) {
    throw HttpError(400, std::string("bad RDF: ") + e.what());
  }
}

// Writes `text` to a new file of this user's alone; returns its path.
std::filesystem::path writePrivateFile(const std::string& text) {
  std::string name = (std::filesystem::temp_directory_path() / "gsparql-graph-store-XXXXXX.nt").string();
  const int fd = ::mkstemps(name.data(), 3);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file in " + name + ": " + std::strerror(errno));
  for (size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(name.c_str());
      throw std::runtime_error("cannot write " + name + ": " + std::strerror(error));
    }
    written += static_cast<size_t>(n);
  }
  ::close(fd);
  return name;
}

}  // namespace

std::optional<RdfFormat> rdfFormatOfMediaType(const std::string& mediaType) {
  // Media types are case-insensitive (RFC 9110 8.3.1); rdf/rdf_formats.h's
  // table holds the registered ones and the older names clients still send
  // (text/plain was N-Triples' before RDF 1.1).
  for (const rdf::RdfSyntax& syntax : rdf::rdfSyntaxes()) {
    if (syntax.reader && rdf::listHolds(syntax.mediaTypes, mediaType)) return syntax.reader;
  }
  return std::nullopt;
}

TriplesFile::TriplesFile(const std::vector<RdfDocument>& documents, const std::string& baseIri) {
  NTriples ntriples;
  for (size_t i = 0; i < documents.size(); ++i) {
    appendNTriples(ntriples, documents[i], baseIri, documents.size() > 1 ? "d" + std::to_string(i + 1) + "_" : "");
  }
  path_ = writePrivateFile(ntriples.text);
  triples_ = ntriples.triples;
}

TriplesFile::~TriplesFile() {
  std::error_code ignored;  // a file left in the temp folder harms nobody
  std::filesystem::remove(path_, ignored);
}

}  // namespace gsparql::server
