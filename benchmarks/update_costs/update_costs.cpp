// update-costs DIR [UPDATES]: sends UPDATES one-triple updates (INSERT DATA
// and DELETE DATA in turn, as benchmarks/server_load.lua does) to the
// database at DIR one after another and prints, every 32nd, what each part
// costs with the delta of that moment (medians: the machine is shared): an
// update (Database::update, of the last 32), the opening of a snapshot
// (GraphStore: RocksDB, the generation's files and the replay of every
// delta file), as each update and then a server's readers do, and the
// reading of the delta files alone.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "storage/delta_file.h"
#include "storage/graph_store.h"

namespace {

using Clock = std::chrono::steady_clock;

template <typename F>
double millisecondsOf(F&& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string updateText(int i) {
  return std::string(i % 2 == 1 ? "INSERT DATA" : "DELETE DATA") + " { <http://e/load/t0> <http://e/n> " +
         std::to_string((i + 1) / 2) + " }";
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The median of five runs: the machine is shared.
template <typename F>
double medianMillisecondsOf(F&& f) {
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) times.push_back(millisecondsOf(f));
  return median(times);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: update-costs DIR [UPDATES]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const int updates = argc > 2 ? std::stoi(argv[2]) : 256;
  std::printf("%6s %16s %12s %12s\n", "files", "update_ms_p50", "open_ms", "read_ms");
  std::vector<double> window;
  for (int i = 1; i <= updates; ++i) {
    gsparql::UpdateSummary summary;
    window.push_back(millisecondsOf([&] { summary = gsparql::Database::update(dir, updateText(i), {.mergeWhenDue = false}); }));
    if (i % 32 != 0) continue;
    const double open = medianMillisecondsOf([&] { const gsparql::GraphStore store(dir); });
    const gsparql::GraphStore store(dir);
    const double read = medianMillisecondsOf([&] { (void)gsparql::readDeltaFiles(store.generation().dir, 1, store.deltaFiles()); });
    std::printf("%6u %16.2f %12.2f %12.2f\n", summary.deltaFile, median(window), open, read);
    window.clear();
  }
}
