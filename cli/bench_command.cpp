// `gsparql bench`: runs every query of a folder several times and reports,
// per query, the rows and the min/median/max time with all rows decoded to
// terms, then a summary per template (the file name up to '_': L1, C3, ...).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/query_options.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

struct Measurement {
  std::string query;
  size_t rows = 0;
  std::vector<double> milliseconds;  // sorted
  double median() const { return milliseconds[milliseconds.size() / 2]; }
};

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> queryFiles(const std::string& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    if (e.path().extension() == ".rq") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw UsageError("no .rq files in " + folder);
  return files;
}

// One run: the query and every row decoded, as a user of the results would.
std::pair<size_t, double> timeOnce(const Database& db, const std::string& text, const QueryOptions& options) {
  auto start = std::chrono::steady_clock::now();
  QueryResult result = db.query(text, options);
  size_t rows = 0;
  result.forEachRow([&](std::span<const Term>) { ++rows; });
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return {result.isBoolean() ? 1 : rows, ms};
}

Measurement measure(const Database& db, const std::filesystem::path& file, int repeat, const QueryOptions& options) {
  const std::string text = readText(file);
  Measurement m{file.stem().string(), 0, {}};
  timeOnce(db, text, options);  // warm-up: caches and page faults
  for (int i = 0; i < repeat; ++i) {
    auto [rows, ms] = timeOnce(db, text, options);
    m.rows = rows;
    m.milliseconds.push_back(ms);
  }
  std::sort(m.milliseconds.begin(), m.milliseconds.end());
  return m;
}

std::string templateOf(const std::string& query) { return query.substr(0, query.find('_')); }

void printSummary(const std::vector<Measurement>& all) {
  std::map<std::string, std::vector<double>> byTemplate;
  for (const auto& m : all) byTemplate[templateOf(m.query)].push_back(m.median());
  std::printf("\ntemplate,queries,median_of_medians_ms,max_median_ms\n");
  for (auto& [name, medians] : byTemplate) {
    std::sort(medians.begin(), medians.end());
    std::printf("%s,%zu,%.3f,%.3f\n", name.c_str(), medians.size(), medians[medians.size() / 2], medians.back());
  }
}

}  // namespace

int runBench(const Args& args) {
  Arguments a(args, {{"--db", "--queries", "--repeat", "--backend", "--semantics"}, {}});
  Database db(a.required("--db"));
  QueryOptions options = queryOptionsFrom(a);
  int repeat = std::stoi(a.value("--repeat").value_or("5"));
  if (repeat < 1) throw UsageError("--repeat must be at least 1");
  std::vector<Measurement> all;
  std::printf("query,template,rows,min_ms,median_ms,max_ms\n");
  for (const auto& file : queryFiles(a.required("--queries"))) {
    Measurement m = measure(db, file, repeat, options);
    std::printf("%s,%s,%zu,%.3f,%.3f,%.3f\n", m.query.c_str(), templateOf(m.query).c_str(), m.rows,
                m.milliseconds.front(), m.median(), m.milliseconds.back());
    std::fflush(stdout);
    all.push_back(std::move(m));
  }
  printSummary(all);
  return 0;
}

}  // namespace gsparql::cli
