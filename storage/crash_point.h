#pragma once
#include <string_view>

namespace gsparql {

// Fault injection for the crash-safety tests: when the environment variable
// GSPARQL_CRASH_AT equals `name`, the process kills itself (SIGKILL) here,
// exactly as `kill -9` would. Costs one comparison otherwise.
void crashPoint(std::string_view name);

}  // namespace gsparql
