#pragma once
// SPARQL's ORDER BY ordering of terms (section 15.1): unbound < blank nodes <
// IRIs < literals; numeric literals by value, other literals by lexical form,
// then language tag or datatype, so that the order is total and stable.
#include <optional>
#include <string_view>

namespace gsparql::engine {

// Negative, zero or positive, like strcmp. Terms are in rdf/term.h form.
int compareTerms(std::optional<std::string_view> a, std::optional<std::string_view> b);

}  // namespace gsparql::engine
