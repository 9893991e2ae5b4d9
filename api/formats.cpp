// The public face of rdf/rdf_formats.h's table.
#include "gsparql/load.h"
#include "rdf/rdf_formats.h"

namespace gsparql {

std::optional<RdfFormat> rdfFormatFromName(std::string_view name) {
  const rdf::RdfSyntax* syntax = rdf::rdfSyntaxByName(name);
  if (syntax == nullptr) return std::nullopt;
  return syntax->reader;
}

std::string rdfFormatNames() {
  std::string names;
  for (const rdf::RdfSyntax& syntax : rdf::rdfSyntaxes()) {
    if (!syntax.reader) continue;
    if (!names.empty()) names += ", ";
    names += syntax.name;
  }
  return names;
}

}  // namespace gsparql
