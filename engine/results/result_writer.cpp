#include "engine/results/result_writer.h"

#include <stdexcept>
#include <string>

#include "engine/results/writers.h"

namespace gsparql::results {

std::optional<Format> formatFromName(std::string_view name) {
  if (name == "table") return Format::Table;
  if (name == "tsv") return Format::Tsv;
  if (name == "csv") return Format::Csv;
  if (name == "json") return Format::Json;
  if (name == "xml") return Format::Xml;
  if (name == "nt") return Format::NTriples;
  if (name == "ttl") return Format::Turtle;
  return std::nullopt;
}

std::string_view formatName(Format format) {
  switch (format) {
    case Format::Table: return "table";
    case Format::Tsv: return "tsv";
    case Format::Csv: return "csv";
    case Format::Json: return "json";
    case Format::Xml: return "xml";
    case Format::NTriples: return "nt";
    case Format::Turtle: return "ttl";
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
    case Format::Turtle: break;
  }
  throw std::invalid_argument("not a solutions format: " + std::string(formatName(format)));
}

}  // namespace gsparql::results
