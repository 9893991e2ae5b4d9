#include "support/test_support.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gsparql/database.h"

extern char** environ;

namespace gsparql::test {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gsparql-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path dataFile(const std::string& relative) {
  // The GPU machine runs test binaries built elsewhere: it names the folder.
  const char* moved = std::getenv("GSPARQL_TEST_DATA");
  return std::filesystem::path(moved != nullptr ? moved : GSPARQL_TEST_DATA) / relative;
}

std::vector<std::string> readLines(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void writeFile(const std::filesystem::path& file, const std::string& content) {
  std::ofstream out(file, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::vector<std::string> sortedDump(const std::filesystem::path& db) {
  std::ostringstream out;
  Database(db).dump(out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::vector<std::string> directoryEntries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

std::vector<char*> argv(std::vector<std::string>& args) {
  std::vector<char*> out;
  for (auto& a : args) out.push_back(a.data());
  out.push_back(nullptr);
  return out;
}

// Standard error goes to `errorFile`, or with standard output where it is empty.
int spawn(std::vector<std::string> args, std::vector<std::string> env, const std::filesystem::path& outputFile,
          const std::filesystem::path& stdinFile, const std::filesystem::path& errorFile = {}) {
  args.insert(args.begin(), GSPARQL_CLI);
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (errorFile.empty()) {
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, errorFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  if (!stdinFile.empty()) posix_spawn_file_actions_addopen(&actions, 0, stdinFile.c_str(), O_RDONLY, 0);
  pid_t pid = -1;
  auto a = argv(args);
  auto e = argv(env);
  int rc = posix_spawn(&pid, GSPARQL_CLI, &actions, nullptr, a.data(), e.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " GSPARQL_CLI);
  return pid;
}

}  // namespace

int spawnCli(const std::vector<std::string>& args, const std::filesystem::path& outputFile) {
  return spawn(args, {}, outputFile, {});
}

ProcessResult waitFor(int pid, const std::filesystem::path& outputFile) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  ProcessResult result;
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.output = readText(outputFile);
  return result;
}

ProcessResult shell(const std::string& command) {
  ProcessResult result;
  FILE* pipe = ::popen(("( " + command + " ) 2>&1").c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start sh for: " + command);
  char buffer[65536];
  while (size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string shellQuoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

ProcessResult runCli(const std::vector<std::string>& args, const std::vector<std::string>& env,
                     const std::filesystem::path& stdinFile) {
  TempDir scratch;
  auto output = scratch / "output";
  return waitFor(spawn(args, env, output, stdinFile), output);
}

SeparateOutputs runCliApart(const std::vector<std::string>& args, const std::filesystem::path& stdinFile) {
  TempDir scratch;
  const auto output = scratch / "output", errors = scratch / "errors";
  const ProcessResult result = waitFor(spawn(args, {}, output, stdinFile, errors), output);
  return {result.exitCode, result.output, readText(errors)};
}

}  // namespace gsparql::test

namespace gsparql::test {

std::string countingQuery(const std::string& select, const std::string& distinctVariable) {
  const size_t where = select.find(" WHERE");
  if (where == std::string::npos) throw std::invalid_argument("no WHERE in " + select);
  const std::string count = distinctVariable.empty() ? "*" : "DISTINCT ?" + distinctVariable;
  return "SELECT (COUNT(" + count + ") AS ?n)" + select.substr(where);
}

std::string groupCountQuery(const std::string& select, const std::string& v, bool sample) {
  const size_t where = select.find(" WHERE");
  if (where == std::string::npos) throw std::invalid_argument("no WHERE in " + select);
  return "SELECT ?" + v + " (COUNT(*) AS ?n)" + (sample ? " (SAMPLE(?" + v + ") AS ?s)" : "") + select.substr(where) +
         " GROUP BY ?" + v;
}

std::vector<std::string> resultLines(const QueryResult& result) {
  std::vector<std::string> rows;
  result.forEachRow([&](std::span<const Term> row) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += (i ? "\t" : "") + std::string(row[i].value_or(""));
    rows.push_back(line);
  });
  return rows;
}

std::vector<std::string> sortedLines(const QueryResult& result) {
  std::vector<std::string> rows = resultLines(result);
  std::sort(rows.begin(), rows.end());
  return rows;
}

uint64_t countOf(const QueryResult& result) {
  std::vector<std::string> cells;
  result.forEachRow([&](std::span<const Term> row) { cells.emplace_back(row.size() == 1 && row[0] ? *row[0] : ""); });
  const std::string suffix = "\"^^<http://www.w3.org/2001/XMLSchema#integer>";
  if (cells.size() != 1 || !cells[0].starts_with('"') || !cells[0].ends_with(suffix)) {
    throw std::runtime_error("not a count: " + (cells.empty() ? std::string("no rows") : cells[0]));
  }
  return std::stoull(cells[0].substr(1, cells[0].size() - 1 - suffix.size()));
}

std::string branchFanOutTriples() {
  std::string nt;
  for (int i = 0; i < 1000; ++i) {
    const std::string n = std::to_string(i);
    if (i < 50) nt += "<http://e/c> <http://e/p> <http://e/a" + n + "> .\n";
    nt += "<http://e/b" + n + "> <http://e/q> <http://e/c> .\n";
    if (i % 10 == 0) nt += "<http://e/b" + n + "> <http://e/r> <http://e/z" + n + "> .\n";
  }
  return nt;
}

}  // namespace gsparql::test
