#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/progress_bar.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

RdfFormat parseFormat(const std::string& name) {
  if (name == "nt" || name == "ntriples") return RdfFormat::NTriples;
  if (name == "ttl" || name == "turtle") return RdfFormat::Turtle;
  if (name == "nq" || name == "nquads") return RdfFormat::NQuads;
  if (name == "trig") return RdfFormat::TriG;
  throw UsageError("unknown --format " + name + " (nt, ttl, nq or trig)");
}

void printSummary(const LoadSummary& s) {
  double rate = s.seconds > 0 ? static_cast<double>(s.triplesRead) / s.seconds : 0;
  std::printf("loaded %llu triples read, %llu unique triples, %llu terms, %llu predicates in %.2f s (%.0f triples/s)\n",
              static_cast<unsigned long long>(s.triplesRead), static_cast<unsigned long long>(s.uniqueTriples),
              static_cast<unsigned long long>(s.terms), static_cast<unsigned long long>(s.predicates), s.seconds,
              rate);
}

void printSkipped(const LoadSummary& s) {
  if (s.skippedStatements == 0) return;
  std::fprintf(stderr, "skipped %llu bad statements; the first:\n",
               static_cast<unsigned long long>(s.skippedStatements));
  for (const auto& e : s.firstErrors) std::fprintf(stderr, "  %s\n", e.c_str());
}

void printPhases(const LoadSummary& s) {
  auto rate = [&](double seconds) { return seconds > 0 ? static_cast<double>(s.triplesRead) / seconds / 1e6 : 0.0; };
  std::printf("phases (M triples/s):\n");
  std::printf("  read, parse and encode  %8.2f s  %7.2f\n", s.parseSeconds, rate(s.parseSeconds));
  std::printf("    of it encoding        %8.2f s  %7.2f\n", s.encodeSeconds, rate(s.encodeSeconds));
  std::printf("  sort (all of it)        %8.2f s  %7.2f\n", s.sortSeconds, rate(s.sortSeconds));
  std::printf("  build after reading     %8.2f s  %7.2f\n", s.buildSeconds, rate(s.buildSeconds));
  std::printf("    adjacency             %8.2f s  %7.2f\n", s.adjacencySeconds, rate(s.adjacencySeconds));
  std::printf("    dictionary and terms  %8.2f s  %7.2f  (beside the adjacency)\n", s.termFilesSeconds,
              rate(s.termFilesSeconds));
  std::printf("  commit                  %8.2f s\n", s.seconds - s.parseSeconds - s.buildSeconds);
  std::printf("peak memory %.0f MiB\n", static_cast<double>(s.peakMemoryBytes) / (1 << 20));
}

}  // namespace

int runLoad(const Args& args) {
  // Past a file-size limit (ulimit -f) a write should fail with EFBIG and be
  // reported like a full disk, not kill the process with SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  Arguments a(args, {{"--db", "--format", "--memory-budget", "--graph"}, {"--lenient", "--quiet", "--verbose"}});
  if (a.positional().empty()) throw UsageError("load needs at least one input file (or - for standard input)");
  LoadOptions options;
  options.lenient = a.flag("--lenient");
  if (auto f = a.value("--format")) options.format = parseFormat(*f);
  if (auto budget = a.value("--memory-budget")) options.memoryBudgetBytes = options::parseByteSize(*budget);
  options.graph = a.value("--graph").value_or("");
  std::unique_ptr<ProgressBar> bar;
  if (!a.flag("--quiet") && ::isatty(STDERR_FILENO)) {
    bar = std::make_unique<ProgressBar>(stderr);
    options.onProgress = [&bar](const LoadProgress& p) { bar->update(p); };
  }
  LoadSummary summary = Database::load(a.required("--db"), a.positional(), options);
  bar.reset();
  printSkipped(summary);
  if (a.flag("--verbose")) printPhases(summary);
  printSummary(summary);
  return 0;
}

}  // namespace gsparql::cli
