// `gsparql version` (and --version, -V): the version of this build, from
// CMake's PROJECT_VERSION, and whether it has the GPU backend.
#include <cstdio>

#include "cli/commands.h"

namespace gsparql::cli {
namespace {

int runVersion(const Arguments&) {
  std::printf("gsparql %s\n", GSPARQL_VERSION);
  std::puts(GSPARQL_GPU_BACKEND ? "GPU backend: compiled in (CUDA); used where a GPU is present"
                                : "GPU backend: not compiled in (queries run on the CPU)");
  return 0;
}

}  // namespace

const Command& versionCommand() {
  static const Command command{
      {.name = "version",
       .summary = "print the version and whether the GPU backend is built in (also: --version, -V)"},
      runVersion};
  return command;
}

}  // namespace gsparql::cli
