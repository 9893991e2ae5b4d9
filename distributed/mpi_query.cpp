// gsparql-mpi: SPARQL queries over a database whose vertices are split among
// the ranks of an MPI job (docs/distributed.md), as one would start it:
//   mpirun -np 4 gsparql-mpi --db DIR QUERY_FILE...
// Every rank opens the folder, parses and plans each query alike and runs
// its BGPs partitioned; rank 0 writes each result as tab-separated terms
// after a line "== FILE". With --local: the same on the CPU executor in one
// process, without MPI (what the partitioned rows are compared with); with
// --notes, each query's executor notes on standard error.
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "distributed/partitioned_executor.h"
#include "distributed/row_exchange.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/fallback_executor.h"
#include "engine/query/query_runner.h"
#include "parser/parse.h"
#include "storage/graph_store.h"

namespace {

using namespace gsparql;

struct Arguments {
  std::string db;
  bool local = false;
  bool notes = false;  // each query's executor notes on standard error (what went between the ranks)
  std::vector<std::string> queries;
};

Arguments parse(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--db" && i + 1 < argc) {
      a.db = argv[++i];
    } else if (arg == "--local") {
      a.local = true;
    } else if (arg == "--notes") {
      a.notes = true;
    } else if (!arg.starts_with("-")) {
      a.queries.push_back(arg);
    } else {
      throw std::invalid_argument("unknown option " + arg);
    }
  }
  if (a.db.empty() || a.queries.empty()) throw std::invalid_argument("usage: gsparql-mpi --db DIR [--local] [--notes] QUERY_FILE...");
  return a;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const engine::QueryOutcome& outcome, std::ostream& out) {
  if (outcome.form == sparql::Query::Form::Ask) {
    out << (outcome.askValue ? "true" : "false") << '\n';
    return;
  }
  for (size_t v = 0; v < outcome.variables.size(); ++v) out << (v ? "\t?" : "?") << outcome.variables[v];
  out << '\n';
  for (size_t r = 0; r < outcome.rows.rows; ++r) {
    for (size_t c = 0; c < outcome.rows.width(); ++c) {
      if (c) out << '\t';
      const engine::ValueId id = outcome.rows.at(r, c);
      if (engine::isBound(id)) out << outcome.terms->term(id);
    }
    out << '\n';
  }
}

// Runs the queries; rank 0 (`writes`) writes their results, and on standard
// error how many of them had a BGP run partitioned and how many one declined.
int run(const Arguments& a, engine::Executor& executor, bool writes) {
  const GraphStore store(a.db);
  size_t partitioned = 0, declined = 0;
  for (const std::string& file : a.queries) {
    const sparql::Query query = sparql::parseQuery(readFile(file));
    const engine::QueryOutcome outcome =
        engine::runQuery(query, store, executor, *engine::makeStatisticsOrderer(), engine::QueryRequest{});
    if (!writes) continue;
    std::cout << "== " << file << '\n';
    write(outcome, std::cout);
    const std::string notes = engine::executorNotes(*outcome.plan);
    if (a.notes) std::fprintf(stderr, "== %s\n%s", file.c_str(), notes.c_str());
    partitioned += notes.find("partitioned over") != std::string::npos;
    declined += notes.find("ran on the CPU executor") != std::string::npos;
  }
  if (writes && !a.local) {
    std::fprintf(stderr, "gsparql-mpi: %zu queries, %zu with a BGP partitioned, %zu with one declined\n",
                 a.queries.size(), partitioned, declined);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Arguments a = parse(argc, argv);
    auto cpu = engine::makeCpuExecutor();
    if (a.local) return run(a, *cpu, true);
    MPI_Init(&argc, &argv);
    int status = 0;
    {
      const distributed::RowExchange exchange;
      // What the partitioned run declines (every rank alike) runs whole on each rank's CPU executor.
      auto executor = engine::makeFallbackExecutor(distributed::makePartitionedExecutor(exchange), *cpu);
      status = run(a, *executor, exchange.rank() == 0);
    }
    MPI_Finalize();
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gsparql-mpi: %s\n", e.what());
    // A rank that fails cannot leave the others waiting in an exchange.
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}
