#include "install_commands.h"

#include <doctest/doctest.h>

#include "support/test_support.h"

namespace gsparql::test {

void installInto(const std::filesystem::path& prefix) {
  const ProcessResult install =
      shell(std::string(GSPARQL_CMAKE) + " --install " + shellQuoted(GSPARQL_BUILD_DIR) + " --prefix " + shellQuoted(prefix));
  INFO(install.output);
  REQUIRE(install.exitCode == 0);
}

}  // namespace gsparql::test
