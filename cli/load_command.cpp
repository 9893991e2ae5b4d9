#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/progress_bar.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

RdfFormat parseFormat(const std::string& name) {
  if (auto format = rdfFormatFromName(name)) return *format;
  throw UsageError("unknown --format '" + name + "' (" + rdfFormatNames() + ", or a media type such as application/rdf+xml)");
}

// 1240 -> "1,240".
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n);
  for (size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

// "1 file", "standard input and 2 files".
std::string inputsText(const std::vector<std::string>& inputs) {
  size_t files = 0;
  for (const std::string& input : inputs) files += input != "-";
  const std::string filesText = grouped(files) + (files == 1 ? " file" : " files");
  if (files == inputs.size()) return filesText;
  return files == 0 ? "standard input" : "standard input and " + filesText;
}

// What was read, and what the database holds now: its triples (a triple
// read twice, or one the database had, is stored once) and its
// predicates counted per graph, as `gsparql info` counts them.
void printSummary(const LoadSummary& s, const std::vector<std::string>& inputs) {
  std::printf("loaded %s triples (%s new) from %s in %.2f s; the database now holds %s triples, %s terms and %s "
              "predicates\n",
              grouped(s.triplesRead).c_str(), grouped(s.uniqueTriples - s.triplesBefore).c_str(),
              inputsText(inputs).c_str(), s.seconds, grouped(s.uniqueTriples).c_str(), grouped(s.terms).c_str(),
              grouped(s.predicates).c_str());
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
  std::printf("      text index          %8.2f s  %7.2f  (of which, beside the others)\n", s.textIndexSeconds,
              rate(s.textIndexSeconds));
  std::printf("  commit                  %8.2f s\n", s.seconds - s.parseSeconds - s.buildSeconds);
  std::printf("peak memory %.0f MiB\n", static_cast<double>(s.peakMemoryBytes) / (1 << 20));
}

// Standard input without --format is read as N-Triples (it has no
// extension to go by). These errors of the reader are Turtle's syntax
// meeting the N-Triples reader: directives, prefixed names, numbers,
// keywords, [ ], ( ), << >> and single quotes ("N-Triples and N-Quads have
// no ..."), and statements over several lines.
bool looksLikeTurtle(const std::string& error) {
  for (const char* sign : {"N-Triples and N-Quads have no", "does not end on its line"}) {
    if (error.find(sign) != std::string::npos) return true;
  }
  return false;
}

// Database::load, with a hint when standard input read as N-Triples by
// default turns out to be Turtle (its errors start "-:LINE:COLUMN:").
LoadSummary load(const std::string& dir, const std::vector<std::string>& inputs, const LoadOptions& options) {
  try {
    return Database::load(dir, inputs, options);
  } catch (const LoadError& e) {
    const std::string error = e.what();
    if (options.format || !error.starts_with("-:") || !looksLikeTurtle(error)) throw;
    throw LoadError(error + " (standard input is read as N-Triples: for Turtle, add --format ttl)");
  }
}

int runLoad(const Arguments& a) {
  // Past a file-size limit (ulimit -f) a write should fail with EFBIG and be
  // reported like a full disk, not kill the process with SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  if (a.positional().empty()) throw UsageError("expected at least one FILE (- for standard input)");
  LoadOptions options;
  options.lenient = a.flag("--lenient");
  if (auto f = a.value("--format")) options.format = parseFormat(*f);
  if (auto budget = a.value("--memory-budget")) options.memoryBudgetBytes = options::parseByteSize(*budget);
  options.graph = a.value("--graph").value_or("");
  if (auto text = a.value("--text-index")) {
    if (*text != "yes" && *text != "no") throw UsageError("--text-index: expected yes or no, got '" + *text + "'");
    options.textIndex = *text == "yes";
  }
  for (const std::string& mapping : a.values("--jsonld-context")) {
    const size_t equals = mapping.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == mapping.size()) {
      throw UsageError("--jsonld-context '" + mapping + "': expected URL=FILE (or URL/=FOLDER)");
    }
    options.jsonLdContexts.emplace_back(mapping.substr(0, equals), mapping.substr(equals + 1));
  }
  std::unique_ptr<ProgressBar> bar;
  if (!a.flag("--quiet") && ::isatty(STDERR_FILENO)) {
    bar = std::make_unique<ProgressBar>(stderr);
    options.onProgress = [&bar](const LoadProgress& p) { bar->update(p); };
  }
  LoadSummary summary = load(a.required("--db"), a.positional(), options);
  bar.reset();
  printSkipped(summary);
  if (a.flag("--verbose")) printPhases(summary);
  printSummary(summary, a.positional());
  return 0;
}

}  // namespace

const Command& loadCommand() {
  static const Command command{
      {.name = "load",
       .synopsis = "--db DIR [options] FILE...",
       .summary = "add RDF files to a database",
       .options = {{"--db", "DIR", "the database directory (created if needed)"},
                   {"--format", "nt|ttl|nq|trig|rdfxml|jsonld", "the syntax of every FILE (default: by its extension)"},
                   {"--graph", "IRI", "the named graph for triples that name none (default: the default graph)"},
                   {"--jsonld-context", "URL=FILE",
                    "JSON-LD: read the context URL from FILE (URL/=FOLDER maps a folder); repeatable; nothing is fetched"},
                   {"--lenient", "", "skip bad statements (the first five are shown) instead of stopping"},
                   {"--memory-budget", "SIZE", "memory for sorting triples, e.g. 8G (default 4G); more spills to disk"},
                   {"--quiet", "", "no progress bar"},
                   {"--text-index", "yes|no",
                    "index the words of string literals for text:query (default: as the database has; yes when new)"},
                   {"--verbose", "", "also the time of each phase and the peak memory"}},
       .notes = "FILE: N-Triples, Turtle, N-Quads, TriG, RDF/XML or JSON-LD (.nt .ttl .nq .trig .rdf .owl\n"
                ".xml .jsonld), each optionally compressed (.gz .bz2 .xz .zst); - reads standard input, as\n"
                "N-Triples unless --format says otherwise.\n"
                "N-Quads, TriG and JSON-LD keep their graphs. A load is atomic: on any error the database is left\n"
                "as it was.\n",
       .maxOperands = kAnyNumber},
      runLoad};
  return command;
}

}  // namespace gsparql::cli
