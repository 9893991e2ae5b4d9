#include "cli/query_options.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace gsparql::cli {
namespace {

const std::vector<OptionUsage>& sharedOptions() {
  static const std::vector<OptionUsage> options{
      {"--db", "DIR", "the database directory"},
      {"-f", "FILE", "read the request from FILE (- for standard input)"},
      {"--backend", "cpu|gpu|auto", "cpu, gpu, or auto (default): each BGP where the cost model puts it"},
      {"--semantics", "hom|iso", "hom (SPARQL's, default) or iso: distinct variables match distinct terms"},
      {"--timeout", "SECONDS", "stop a query that runs longer, with an error (e.g. 2.5; default, 0 or none: no limit)"},
      {"--memory-budget", "SIZE", "stop a query whose intermediate rows outgrow it, e.g. 8G (default: RAM/2)"},
      {"--optimizer", "walks|thorough|statistics", "how join orders are chosen (default: walks; see below)"},
      {"--cost-model", "FILE", "the optimizer's cost model (default: the one gsparql calibrate cached)"},
      {"--gpus", "all|N|LIST", "the GPUs to use: all (default), the first N, or ordinals such as 0,2"},
      {"--gpu-memory", "SIZE", "the most GPU memory to hold on each GPU (default: what is free)"},
      {"--gpu-peer-memory", "SIZE|0",
       "what each GPU holds of adjacency too large for one GPU, read by the others over NVLink "
       "(default: a quarter of --gpu-memory; 0: stream from the host)"},
      {"--gpu-preload", "", "copy the adjacency of every predicate that fits to the GPU at start"},
      {"--union-default-graph", "", "without FROM, the default graph is the union of the named graphs"},
      {"--no-geosparql-rewrite", "", "geo:sfWithin and the other topological properties match stored triples only"},
      {"--entailment", "simple|rdfs", "simple (default): patterns match stored triples; rdfs: also what RDFS entails"},
  };
  return options;
}

Entailment parseEntailment(const std::string& name) {
  if (name == "simple") return Entailment::Simple;
  if (name == "rdfs") return Entailment::Rdfs;
  throw UsageError("unknown entailment '" + name + "' (simple or rdfs)");
}

std::string standardInput() {
  std::ostringstream text;
  text << std::cin.rdbuf();
  return text.str();
}

}  // namespace

const char* const kOptimizerNotes =
    "--optimizer walks orders joins by random walks over the data; thorough also searches\n"
    "orders by dynamic programming where the cost model (gsparql calibrate) prices them high;\n"
    "statistics orders them by per-predicate statistics alone. cost and sampling: the former\n"
    "names of thorough and walks.\n";

OptionUsage sharedOption(const std::string& name) {
  for (const OptionUsage& option : sharedOptions()) {
    if (option.name == name) return option;
  }
  throw std::logic_error("no shared option " + name);
}

Backend parseBackend(const std::string& name) {
  if (name == "auto") return Backend::Auto;
  if (name == "cpu") return Backend::Cpu;
  if (name == "gpu") return Backend::Gpu;
  throw UsageError("unknown backend '" + name + "' (cpu, gpu or auto)");
}

Semantics parseSemantics(const std::string& name) {
  if (name == "hom" || name == "homomorphism") return Semantics::Homomorphism;
  if (name == "iso" || name == "isomorphism") return Semantics::Isomorphism;
  throw UsageError("unknown semantics '" + name + "' (hom or iso)");
}

Optimizer parseOptimizer(const std::string& name) {
  // cost and sampling: the names of 0.1.
  if (name == "thorough" || name == "cost") return Optimizer::Thorough;
  if (name == "walks" || name == "sampling") return Optimizer::Walks;
  if (name == "statistics") return Optimizer::Statistics;
  throw UsageError("unknown optimizer '" + name + "' (walks, thorough or statistics)");
}

uint64_t parseCount(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
  size_t end = 0;
  uint64_t value = 0;
  try {
    if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) value = std::stoull(text, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || end != text.size() || value < min || value > max) {
    throw UsageError(option + " '" + text + "': expected a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max));
  }
  return value;
}

unsigned parseRepeat(const std::string& text) { return static_cast<unsigned>(parseCount("--repeat", text, 1, 1000000)); }

// all, a count (the first N) or a list of ordinals ("0,2"); a single GPU
// other than the first is a list of one ("2,"), or CUDA_VISIBLE_DEVICES.
std::vector<uint32_t> parseGpus(const std::string& text) {
  constexpr uint64_t kMostGpus = 64;
  if (text == "all") return {};
  std::vector<uint32_t> gpus;
  if (text.find(',') == std::string::npos) {
    const uint64_t count = parseCount("--gpus", text, 1, kMostGpus);
    for (uint32_t d = 0; d < count; ++d) gpus.push_back(d);
    return gpus;
  }
  std::istringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {  // "2,": one GPU
    gpus.push_back(static_cast<uint32_t>(parseCount("--gpus", item, 0, kMostGpus - 1)));
  }
  std::sort(gpus.begin(), gpus.end());
  if (std::adjacent_find(gpus.begin(), gpus.end()) != gpus.end()) {
    throw UsageError("--gpus '" + text + "': a GPU is named twice");
  }
  return gpus;
}

QueryOptions queryOptionsFrom(const Arguments& args) {
  QueryOptions options = queryOptionsButBackend(args);
  if (auto b = args.value("--backend")) options.backend = parseBackend(*b);
  return options;
}

QueryOptions queryOptionsButBackend(const Arguments& args) {
  QueryOptions options;
  if (auto s = args.value("--semantics")) options.semantics = parseSemantics(*s);
  if (auto t = args.value("--timeout")) options.timeout = options::parseTimeLimit(*t);
  if (auto m = args.value("--memory-budget")) options.memoryBudgetBytes = options::parseByteSize(*m);
  if (auto o = args.value("--optimizer")) options.optimizer = parseOptimizer(*o);
  options.unionDefaultGraph = args.flag("--union-default-graph");
  options.geosparqlRewrite = !args.flag("--no-geosparql-rewrite");
  if (auto e = args.value("--entailment")) options.entailment = parseEntailment(*e);
  return options;
}

DatabaseOptions databaseOptionsFrom(const Arguments& args) {
  DatabaseOptions options;
  if (auto m = args.value("--gpu-memory")) options.gpuMemoryBytes = options::parseByteSize(*m);
  if (auto g = args.value("--gpus")) options.gpus = parseGpus(*g);
  if (auto p = args.value("--gpu-peer-memory")) options.gpuPeerBytes = *p == "0" ? 0 : options::parseByteSize(*p);
  if (auto file = args.value("--cost-model")) options.costModel = readCostModel(*file);
  options.gpuPreload = args.flag("--gpu-preload");
  return options;
}

std::vector<std::filesystem::path> queryFiles(const std::string& folder) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) throw UsageError("--queries " + folder + " is not a folder");
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    if (e.path().extension() == ".rq") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw UsageError("no .rq files in " + folder);
  return files;
}

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string requestText(const Arguments& a, const std::string& operand) {
  const std::optional<std::string> file = a.value("-f");
  if (file && !a.positional().empty()) throw UsageError("-f FILE and a " + operand + " argument: give one of them");
  if (file) return *file == "-" ? standardInput() : readText(*file);
  if (a.positional().size() != 1) throw UsageError("expected one " + operand + " argument, or -f FILE");
  return a.positional()[0] == "-" ? standardInput() : a.positional()[0];
}

std::string updateReport(const UpdateSummary& summary) {
  char text[200];
  std::snprintf(text, sizeof(text), "%llu operation(s), %s: %llu -> %llu triples (%s), %.3f s",
                static_cast<unsigned long long>(summary.operations), summary.changed ? "committed" : "no change",
                static_cast<unsigned long long>(summary.triplesBefore),
                static_cast<unsigned long long>(summary.triplesAfter), summary.snapshot().c_str(), summary.seconds);
  return text;
}

}  // namespace gsparql::cli
