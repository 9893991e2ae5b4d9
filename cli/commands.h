#pragma once
// The gsparql subcommands; each takes the arguments after its name and
// returns the process exit code. Errors are thrown and reported by main().
#include <string>
#include <vector>

namespace gsparql::cli {

using Args = std::vector<std::string>;

int runLoad(const Args& args);
int runInfo(const Args& args);
int runDump(const Args& args);
int runBench(const Args& args);
int runCalibrate(const Args& args);
int runQuery(const Args& args);
int runUpdate(const Args& args);
int runRepl(const Args& args);
int runServe(const Args& args);  // only where the server is built (not in portable builds)

}  // namespace gsparql::cli
