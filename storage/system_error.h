#pragma once
#include <string>

#include "gsparql/error.h"

namespace gsparql {

// Throws StorageError "<what> <path>: <strerror(errno)>".
[[noreturn]] void throwSystemError(const std::string& what, const std::string& path);

}  // namespace gsparql
