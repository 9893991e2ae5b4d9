// RDF/XML to N-Triples through the `rapper` command of raptor2-utils: the
// project's loader reads only N-Triples, Turtle and N-Quads, and the few W3C
// tests with RDF/XML need no RDF/XML reader of its own.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "manifest.h"
#include "results.h"
#include "support/files.h"

extern char** environ;

namespace gsparql::conformance {

void convertRdfXml(const std::filesystem::path& rdfXml, const std::filesystem::path& ntriples) {
  convertWithRapper(rdfXml, "rdfxml", ntriples);
}

void convertWithRapper(const std::filesystem::path& rdfXml, const std::string& syntax, const std::filesystem::path& ntriples) {
  std::filesystem::path log = ntriples;
  log += ".log";
  std::vector<std::string> args = {"rapper", "--quiet", "-i", syntax, "-o", "ntriples", rdfXml.string(),
                                   fileUri(rdfXml)};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, ntriples.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, "rapper", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == ENOENT) throw UnsupportedFormat(syntax + ": rapper (Debian package raptor2-utils) is not installed");
  if (rc != 0) throw std::runtime_error("cannot run rapper: " + std::string(std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string message = gsparql::test::readText(log);
  std::filesystem::remove(log);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    // Its first error, past any warnings.
    auto error = message.find("Error");
    if (error != std::string::npos) message = message.substr(message.rfind('\n', error) + 1);
    message = message.substr(0, message.find('\n'));
    if (message.empty())
      message = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status)) : "killed by a signal";
    throw std::runtime_error("rapper rejected " + rdfXml.filename().string() + ": " + message);
  }
}

}  // namespace gsparql::conformance
