#pragma once
// --backend and --semantics, shared by `query`, `bench` and the REPL.
#include <string>

#include "cli/arguments.h"
#include "gsparql/query.h"

namespace gsparql::cli {

Backend parseBackend(const std::string& name);
Semantics parseSemantics(const std::string& name);
QueryOptions queryOptionsFrom(const Arguments& args);

}  // namespace gsparql::cli
