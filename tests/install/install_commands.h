#pragma once
// Installing this build for the install tests.
#include <filesystem>

namespace gsparql::test {

// Installs the build tree into `prefix` (cmake --install); fails the test if it cannot.
void installInto(const std::filesystem::path& prefix);

}  // namespace gsparql::test
