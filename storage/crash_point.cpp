#include "storage/crash_point.h"

#include <csignal>
#include <cstdlib>

namespace gsparql {

void crashPoint(std::string_view name) {
  static const char* target = std::getenv("GSPARQL_CRASH_AT");
  if (target != nullptr && name == target) std::raise(SIGKILL);
}

}  // namespace gsparql
