#pragma once
// The JSON Canonicalization Scheme (RFC 8785), which JSON-LD 1.1 uses for
// the lexical form of an rdf:JSON literal: object members sorted by the
// UTF-16 code units of their names, no whitespace, numbers as ECMAScript
// writes them, strings with the fewest escapes.
#include <string>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

std::string canonicalJson(const Json& value);

// A number as ECMAScript's Number.prototype.toString writes it (1e+21, 0.000001, 1e-7).
std::string ecmaScriptNumber(double value);

}  // namespace gsparql::jsonld
