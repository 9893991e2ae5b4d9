#include "rdf/rdf_formats.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace gsparql::rdf {
namespace {

// In the server's order of preference for graphs (no Accept, or */*: Turtle).
constexpr RdfSyntax kSyntaxes[] = {
    {"ttl", "Turtle", "Turtle", "turtle", "ttl", "text/turtle application/x-turtle", false, RdfFormat::Turtle,
     ResultFormat::Turtle},
    {"nt", "N-Triples", "N-Triples", "ntriples n-triples", "nt", "application/n-triples text/plain", false, RdfFormat::NTriples,
     ResultFormat::NTriples},
    {"nq", "N-Quads", "N-Quads", "nquads n-quads", "nq", "application/n-quads text/x-nquads", true, RdfFormat::NQuads,
     ResultFormat::NQuads},
    {"trig", "TriG", "TriG", "", "trig", "application/trig application/x-trig", true, RdfFormat::TriG, ResultFormat::TriG},
    {"rdfxml", "RDF/XML", "RDF_XML", "rdf/xml rdf owl", "rdf owl xml", "application/rdf+xml", false, RdfFormat::RdfXml,
     ResultFormat::RdfXml},
    {"jsonld", "JSON-LD", "JSON-LD", "json-ld", "jsonld", "application/ld+json", true, RdfFormat::JsonLd,
     ResultFormat::JsonLd},
};

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The suffixes loaders/input_stream.cpp decompresses.
std::string_view withoutCompression(std::string_view name) {
  for (std::string_view suffix : {".gz", ".bz2", ".xz", ".zst"}) {
    if (name.ends_with(suffix)) return name.substr(0, name.size() - suffix.size());
  }
  return name;
}

}  // namespace

std::span<const RdfSyntax> rdfSyntaxes() { return kSyntaxes; }

bool listHolds(std::string_view list, std::string_view word) {
  while (!list.empty()) {
    const size_t space = std::min(list.find(' '), list.size());
    if (equalsIgnoringCase(list.substr(0, space), word)) return true;
    list.remove_prefix(std::min(space + 1, list.size()));
  }
  return false;
}

const RdfSyntax* rdfSyntaxByName(std::string_view name) {
  for (const RdfSyntax& syntax : kSyntaxes) {
    if (equalsIgnoringCase(syntax.name, name) || listHolds(syntax.aliases, name) ||
        listHolds(syntax.mediaTypes, name)) {
      return &syntax;
    }
  }
  return nullptr;
}

const RdfSyntax* rdfSyntaxByFileName(std::string_view fileName) {
  const std::string_view name = withoutCompression(fileName);
  const size_t slash = name.find_last_of('/');
  const size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return nullptr;
  const std::string_view extension = name.substr(dot + 1);
  for (const RdfSyntax& syntax : kSyntaxes) {
    if (listHolds(syntax.extensions, extension)) return &syntax;
  }
  return nullptr;
}

const RdfSyntax* rdfSyntaxOf(RdfFormat reader) {
  for (const RdfSyntax& syntax : kSyntaxes) {
    if (syntax.reader == reader) return &syntax;
  }
  return nullptr;
}

const RdfSyntax* rdfSyntaxOf(ResultFormat writer) {
  for (const RdfSyntax& syntax : kSyntaxes) {
    if (syntax.writer == writer) return &syntax;
  }
  return nullptr;
}

}  // namespace gsparql::rdf
