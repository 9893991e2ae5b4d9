#pragma once
// What the engine answered, in the form the comparison reads, and how an
// answer's order can be checked: shared by the W3C runner and the
// differential tests against Jena.
#include <string>
#include <vector>

#include "gsparql/query.h"
#include "parser/algebra.h"
#include "results.h"

namespace gsparql::conformance {

// Solutions, the boolean or the graph of a result, terms canonical.
ResultSet toResultSet(const gsparql::QueryResult& r);

// The ORDER BY keys that the result order can be checked on: the leading
// plain-variable keys that the query projects.
std::vector<std::string> orderKeys(const gsparql::sparql::Query& q);

}  // namespace gsparql::conformance
