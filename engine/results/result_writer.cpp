#include "engine/results/result_writer.h"

#include <stdexcept>
#include <string>

#include "engine/results/writers.h"
#include "rdf/rdf_formats.h"

namespace gsparql::results {

std::optional<Format> formatFromName(std::string_view name) {
  if (name == "table") return Format::Table;
  if (name == "tsv") return Format::Tsv;
  if (name == "csv") return Format::Csv;
  if (name == "json") return Format::Json;
  if (name == "xml") return Format::Xml;
  if (name.find('/') != std::string_view::npos) return std::nullopt;  // a media type
  if (const rdf::RdfSyntax* syntax = rdf::rdfSyntaxByName(name); syntax != nullptr && syntax->writer) {
    return static_cast<Format>(*syntax->writer);
  }
  return std::nullopt;
}

std::string_view formatName(Format format) {
  switch (format) {
    case Format::Table: return "table";
    case Format::Tsv: return "tsv";
    case Format::Csv: return "csv";
    case Format::Json: return "json";
    case Format::Xml: return "xml";
    case Format::NTriples:
    case Format::Turtle:
    case Format::NQuads:
    case Format::TriG:
    case Format::RdfXml:
    case Format::JsonLd: return rdf::rdfSyntaxOf(static_cast<ResultFormat>(format))->name;
  }
  return "table";
}

std::unique_ptr<ResultWriter> makeResultWriter(Format format, std::ostream& out, const Prefixes& prefixes) {
  switch (format) {
    case Format::Table: return makeTableWriter(out, {.prefixes = prefixes});
    case Format::Tsv: return makeTsvWriter(out);
    case Format::Csv: return makeCsvWriter(out);
    case Format::Json: return makeJsonWriter(out);
    case Format::Xml: return makeXmlWriter(out);
    case Format::NTriples:
    case Format::Turtle:
    case Format::NQuads:
    case Format::TriG:
    case Format::RdfXml:
    case Format::JsonLd: break;
  }
  throw std::invalid_argument("not a solutions format: " + std::string(formatName(format)));
}

}  // namespace gsparql::results
