#pragma once
// A simple compaction of expanded JSON-LD for output (not the API's full
// Compaction algorithm): the context declares the given prefixes that are used; IRIs
// become compact IRIs where a prefix fits; rdf:type values are @type;
// strings, booleans and canonical xsd:integer values are written as native
// JSON (they read back as the same literals); everything else keeps its
// value object. The result reads back to the same dataset.
#include <string>
#include <utility>
#include <vector>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

using PrefixList = std::vector<std::pair<std::string, std::string>>;  // name, namespace IRI

// {"@context": {...}, "@graph": [...]} (no @context without prefixes).
Json compactForOutput(const Json& expanded, const PrefixList& prefixes);

}  // namespace gsparql::jsonld
