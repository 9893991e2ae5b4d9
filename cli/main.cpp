#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/parse_command.h"
#include "gsparql/error.h"

namespace {

constexpr const char* kUsage = R"(usage: gsparql <command> [options]

commands:
  load --db DIR [--format nt|ttl|nq|trig] [--graph IRI] [--lenient] [--memory-budget SIZE] [--quiet] [--verbose] FILE...
        add RDF files (.nt .ttl .nq .trig, optionally .gz .bz2 .xz .zst; - for standard input); N-Quads and TriG keep
        their graphs, and --graph puts triples that name none into that named graph
  info --db DIR [--verify]     print statistics (and check all checksums)
  dump --db DIR                write the dataset as N-Quads (N-Triples where it has no named graphs)
  query --db DIR [QUERY | -f FILE | -] [--format table|tsv|csv|json|xml] [--backend cpu|gpu|auto]
        [--semantics hom|iso] [--timeout SECONDS] [--memory-budget SIZE] [--optimizer walks|thorough|statistics] [--cost-model FILE]
        [--gpu-memory SIZE] [--union-default-graph] [--time] [--explain]
        run a SPARQL query (table on a terminal, TSV otherwise); --explain and --time go to stderr;
        a query that runs past --timeout, or whose intermediate results outgrow --memory-budget
        (e.g. 8G; half of the memory by default), stops with an error; --gpu-memory caps the GPU
        memory it holds (what is free by default): larger steps run depth-first over slices of rows;
        --optimizer: join orders from random walks over the data (walks, the default), also searched
        by dynamic programming where the calibrated cost model (gsparql calibrate; --cost-model FILE)
        prices them high (thorough), or from per-predicate statistics; cost and sampling: the old
        names of thorough and walks; auto places BGPs by that model;
        --union-default-graph: without FROM, the default graph is the union of the named graphs
  update --db DIR [UPDATE | -f FILE | -] [--timeout SECONDS] [--memory-budget SIZE] [--union-default-graph] [--merge] [--quiet]
        run a SPARQL 1.1 Update request (INSERT DATA, DELETE WHERE, DELETE/INSERT ... WHERE, LOAD
        <file:///path>, CLEAR, ...; the database is created if needed); it is on disk, whole, when
        the command returns, and nothing of it is applied if it fails. Small updates are kept as a
        delta beside the database, merged into it once large; --merge merges it now
  repl --db DIR [--backend cpu|gpu|auto] [--semantics hom|iso] [--timeout SECONDS] [--memory-budget SIZE]
        [--gpu-memory SIZE] [--gpu-preload] [--optimizer walks|thorough|statistics] [--cost-model FILE] [--union-default-graph]
        interactive shell: queries end with ';', prefixes are remembered, .help lists commands
  serve --db DIR [--bind ADDRESS] [--port N] [--backend cpu|gpu|auto] [--threads N] [--queue N]
        [--timeout SECONDS] [--max-result-rows N] [--memory-budget SIZE] [--gpu-memory SIZE] [--gpu-streams N]
        [--gpu-preload] [--read-only] [--optimizer walks|thorough|statistics] [--cost-model FILE] [--union-default-graph]
        [--token TOKEN]
        [--access-log FILE|-] [--web DIR]
        the SPARQL 1.1 Protocol at http://ADDRESS:N/sparql (127.0.0.1:7878; --port 0: any free port) and
        the query page at /; SIGTERM or Ctrl-C stops it after answering the requests in flight, a second
        one cancels them and exits within a second; --memory-budget is for all queries in flight together
  parse [QUERY | -f FILE]      print the algebra and query graphs of a SPARQL query
  bench --db DIR --queries FOLDER [--repeat N] [--backend cpu|gpu|auto] [--semantics hom|iso] [--cold] [--union-default-graph]
        [--gpu-memory SIZE] [--gpu-preload] [--optimizer walks|thorough|statistics] [--cost-model FILE] [--ablation none|plain-csr|two-pass|naive-set-ops|no-fusion]
        run each .rq file N times (all rows decoded); CSV of min/median/max ms per query;
        --gpu-preload (also repl, serve): copy every predicate's adjacency that fits to the GPU as the database opens
  calibrate --db DIR --queries FOLDER [--repeat N] [--timeout SECONDS] [--gpu-memory SIZE] [--out FILE]
        measure what BGPs cost on each executor here (the GPU's where one is) by running the .rq files,
        fit the optimizer's cost model and cache it (~/.cache/gsparql/cost-model, or --out FILE)
)";

using Command = int (*)(const gsparql::cli::Args&);

int runParse(const gsparql::cli::Args& args) {
  std::vector<std::string> owned{"parse"};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  return gsparql::cli::runParseCommand(static_cast<int>(owned.size()), argv.data());
}

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table{
      {"load", gsparql::cli::runLoad},
      {"info", gsparql::cli::runInfo},
      {"dump", gsparql::cli::runDump},
      {"query", gsparql::cli::runQuery},
      {"update", gsparql::cli::runUpdate},
      {"repl", gsparql::cli::runRepl},
#ifdef GSPARQL_HAVE_SERVER
      {"serve", gsparql::cli::runServe},
#endif
      {"parse", runParse},
      {"bench", gsparql::cli::runBench},
      {"calibrate", gsparql::cli::runCalibrate},
  };
  return table;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  auto it = commands().find(argv[1]);
  if (it == commands().end()) {
    std::fprintf(stderr, "gsparql: unknown command '%s'\n\n%s", argv[1], kUsage);
    return 2;
  }
  try {
    return it->second(gsparql::cli::Args(argv + 2, argv + argc));
  } catch (const gsparql::cli::UsageError& e) {
    std::fprintf(stderr, "gsparql %s: %s\n\n%s", argv[1], e.what(), kUsage);
    return 2;
  } catch (const gsparql::Error& e) {
    std::fprintf(stderr, "gsparql %s: error: %s\n", argv[1], e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gsparql %s: internal error: %s\n", argv[1], e.what());
    return 1;
  }
}
