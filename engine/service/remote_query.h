#pragma once
// The text a SERVICE pattern is sent as: SELECT * WHERE { pattern }, with
// the outer solutions it joins as a trailing VALUES block. Trailing VALUES
// joins the pattern's solutions (section 18.2.4.3), as the outer join would,
// so FILTERs inside the pattern still see only its own variables.
#include <string>

#include "parser/algebra.h"

namespace gsparql::engine::service {

// `bindings` without variables: the pattern alone. Terms print as absolute
// IRIs and full literals, so the text needs no PREFIX or BASE.
std::string remoteQueryText(const sparql::OpPtr& pattern, const sparql::Table& bindings);

}  // namespace gsparql::engine::service
