// Every command the README shows in its `sh` blocks, run as shown, in order,
// on the bundled WatDiv sample: the README cannot promise what the program
// does not do. The files its commands name are made here from the sample.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/test_support.h"

using namespace gsparql::test;

namespace {

const std::filesystem::path kSource = GSPARQL_SOURCE_DIR;

// The lines of the README's blocks in `language` (```sh, ```python).
std::vector<std::string> readmeBlockLines(const std::string& language) {
  std::ifstream in(kSource / "README.md");
  std::vector<std::string> lines;
  bool inBlock = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("```")) {
      inBlock = line == "```" + language;
      continue;
    }
    if (inBlock) lines.push_back(line);
  }
  return lines;
}

// The commands of the README's ```sh blocks, without trailing comments (two
// spaces, then '#'), joined where a line ends in '\'.
std::vector<std::string> readmeCommands() {
  std::vector<std::string> commands;
  for (std::string line : readmeBlockLines("sh")) {
    if (line.empty()) continue;
    if (const size_t comment = line.find("  #"); comment != std::string::npos) line.erase(comment);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!commands.empty() && commands.back().ends_with("\\")) {
      commands.back().pop_back();
      commands.back() += line;
    } else {
      commands.push_back(line);
    }
  }
  return commands;
}

// Commands not run here, and what checks them instead.
bool checkedElsewhere(const std::string& command) {
  static const std::vector<std::string> prefixes{
      "scripts/",        // the two commands themselves: CI runs scripts/test.sh, scripts/demo.sh is run by hand
      "sudo ", "apt ",   // installing the Debian package: tests/install (its contents, and `gsparql` from it)
      "cmake ", "cpack ",  // building and installing: tests/install
  };
  for (const std::string& prefix : prefixes) {
    if (command.starts_with(prefix)) return true;
  }
  return false;
}

// The files the README's commands read, from the bundled sample.
void makeFiles(const std::filesystem::path& dir) {
  const auto sample = kSource / "tests/data/watdiv/sf1.nt.zst";
  std::filesystem::copy_file(sample, dir / "data.nt.zst");
  std::filesystem::copy_file(sample, dir / "big.nt.zst");
  writeFile(dir / "more.ttl", "@prefix e: <http://e/> .\ne:alice e:knows e:bob ; e:name \"Alice\"@en .\n");
  std::filesystem::copy_file(dir / "more.ttl", dir / "data.ttl");
  writeFile(dir / "graphs.nq", "<http://e/bob> <http://e/knows> <http://e/carol> <http://e/g1> .\n");
  REQUIRE(shell("gzip " + shellQuoted(dir / "graphs.nq")).exitCode == 0);
  writeFile(dir / "query.rq", "SELECT ?s ?o WHERE { ?s <http://e/knows> ?o }\n");
  writeFile(dir / "changes.ru",
            "PREFIX e: <http://e/>\nINSERT DATA { e:carol e:knows e:dave } ;\nDELETE DATA { e:alice e:knows e:bob }\n");
  // `build/default/cli/gsparql` as in the README, and `gsparql` on the PATH as installed.
  std::filesystem::create_directories(dir / "build/default/cli");
  std::filesystem::create_symlink(GSPARQL_CLI, dir / "build/default/cli/gsparql");
  std::filesystem::create_directories(dir / "bin");
  std::filesystem::create_symlink(GSPARQL_CLI, dir / "bin/gsparql");
}

// `command` with sh in `dir`; a server is let run for two seconds.
ProcessResult run(const std::string& command, const std::filesystem::path& dir) {
  const bool serves = command.find(" serve ") != std::string::npos;
  return shell("cd " + shellQuoted(dir) + " && PATH=\"$PWD/bin:$PATH\" " + (serves ? "timeout 2 " : "") + "sh -c " +
               shellQuoted(command) + " < /dev/null");
}

}  // namespace

TEST_CASE("every command of the README runs as shown on the bundled sample") {
  TempDir dir;
  makeFiles(dir.path());
  size_t ran = 0;
  for (const std::string& command : readmeCommands()) {
    if (checkedElsewhere(command)) continue;
    INFO(command);
    const ProcessResult result = run(command, dir.path());
    INFO(result.output);
    if (command.find(" serve ") != std::string::npos) {
      CHECK(result.exitCode == 124);  // still serving when stopped
      CHECK(result.output.find("listening on") != std::string::npos);
    } else {
      CHECK(result.exitCode == 0);
    }
    ++ran;
  }
  CHECK(ran >= 10);
}

#ifdef GSPARQL_PYTHON_PATH
TEST_CASE("the README's Python runs as shown, on a database its commands made") {
  TempDir dir;
  makeFiles(dir.path());
  for (const std::string& command : readmeCommands()) {
    if (!checkedElsewhere(command) && command.find(" serve ") == std::string::npos) run(command, dir.path());
  }
  std::string program;
  for (const std::string& line : readmeBlockLines("python")) program += line + "\n";
  REQUIRE(!program.empty());
  writeFile(dir / "readme.py", program);
  const ProcessResult result = run("PYTHONPATH=" GSPARQL_PYTHON_PATH " /usr/bin/python3 readme.py", dir.path());
  INFO(result.output);
  CHECK(result.exitCode == 0);
  CHECK(result.output.find("http://e/alice http://e/bob") != std::string::npos);
}
#endif
