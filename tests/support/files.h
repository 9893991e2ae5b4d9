#pragma once
// Reading a whole file, for every test and test tool.
#include <filesystem>
#include <string>

namespace gsparql::test {

// The file's bytes; throws std::runtime_error naming the file when it cannot be read.
std::string readText(const std::filesystem::path& file);

}  // namespace gsparql::test
