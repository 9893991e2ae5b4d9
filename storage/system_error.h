#pragma once
#include <cstdint>
#include <string>

#include "gsparql/error.h"

namespace gsparql {

// Throws StorageError "<what> <path>: <strerror(errno)>".
[[noreturn]] void throwSystemError(const std::string& what, const std::string& path);

// Throws StorageError "database corrupted: <path>, offset <offset>: <what>":
// data that contradicts its checksum or the format's rules.
[[noreturn]] void throwCorrupted(const std::string& path, uint64_t offset, const std::string& what);

}  // namespace gsparql
