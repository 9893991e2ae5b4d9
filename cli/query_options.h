#pragma once
// The options that several commands share (--db, -f, --backend,
// --semantics, --timeout, --memory-budget, --gpu-memory, ...): their usage
// and how they are read, for `query`, `bench`, `serve`, `update`,
// `calibrate`, `parse` and the REPL.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/usage.h"
#include "gsparql/database.h"
#include "gsparql/query.h"
#include "gsparql/update.h"
#include "options/option_values.h"

namespace gsparql::cli {

// The usage of one of the options read here ("--backend", "-f", ...), for
// the usage of a command that takes it.
OptionUsage sharedOption(const std::string& name);
// What --optimizer's values do: notes for the commands that take it.
extern const char* const kOptimizerNotes;

Backend parseBackend(const std::string& name);
Semantics parseSemantics(const std::string& name);
Optimizer parseOptimizer(const std::string& name);
// A whole number from min to max given to `option`, else a UsageError naming them.
uint64_t parseCount(const std::string& option, const std::string& text, uint64_t min, uint64_t max);
// --repeat of bench and calibrate: runs per query.
unsigned parseRepeat(const std::string& text);
// --gpus all|N|LIST: the CUDA ordinals to use (empty: all).
std::vector<uint32_t> parseGpus(const std::string& text);
QueryOptions queryOptionsFrom(const Arguments& args);
// The same but --backend (bench reads a list of them).
QueryOptions queryOptionsButBackend(const Arguments& args);
// --gpus, --gpu-memory, --gpu-preload and --cost-model.
DatabaseOptions databaseOptionsFrom(const Arguments& args);
// The .rq files of --queries FOLDER, sorted.
std::vector<std::filesystem::path> queryFiles(const std::string& folder);
std::string readText(const std::filesystem::path& file);
// "1 operation(s), committed: 4 -> 3 triples (generation 5), 0.197 s"
std::string updateReport(const UpdateSummary& summary);
// The query or update text: the one positional argument, standard input for
// "-", or the file of -f (standard input for "-f -"). `operand` names the
// argument in errors: "QUERY", "UPDATE".
std::string requestText(const Arguments& args, const std::string& operand);

}  // namespace gsparql::cli
