#include "loaders/triple_sorter.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <queue>

#include "storage/file_io.h"

namespace gsparql {
namespace {

using Run = std::span<const Triple>;

// The next predicate's triples of each run, taken off the runs' fronts.
std::vector<Run> takePredicate(std::vector<Run>& runs, uint32_t predicate) {
  std::vector<Run> parts;
  for (Run& run : runs) {
    const auto end = std::partition_point(run.begin(), run.end(), [&](const Triple& t) { return t.p == predicate; });
    const auto count = static_cast<size_t>(end - run.begin());
    if (count > 0) parts.push_back(run.first(count));
    run = run.subspan(count);
  }
  return parts;
}

// Merges sorted, duplicate-free runs of one predicate into `out`, dropping
// triples that several runs hold.
void mergeInto(const std::vector<Run>& runs, std::vector<Edge>& out) {
  auto later = [&](std::pair<size_t, size_t> a, std::pair<size_t, size_t> b) {
    return runs[b.first][b.second] < runs[a.first][a.second];
  };
  std::priority_queue<std::pair<size_t, size_t>, std::vector<std::pair<size_t, size_t>>, decltype(later)> heap(later);
  for (size_t r = 0; r < runs.size(); ++r) {
    if (!runs[r].empty()) heap.emplace(r, 0);
  }
  while (!heap.empty()) {
    auto [r, i] = heap.top();
    heap.pop();
    const Triple& t = runs[r][i];
    if (out.empty() || out.back() != Edge{t.s, t.o}) out.push_back(Edge{t.s, t.o});
    if (i + 1 < runs[r].size()) heap.emplace(r, i + 1);
  }
}

// One predicate's edges from its parts of all runs. Several runs are merged
// in slices of subjects, on all cores: a triple's copies in different runs
// share a subject, so they meet in one slice.
void mergePredicate(const std::vector<Run>& parts, std::vector<Edge>& edges) {
  edges.clear();
  if (parts.size() == 1) {
    edges.resize(parts[0].size());
    tbb::parallel_for(tbb::blocked_range<size_t>(0, edges.size(), size_t{1} << 16), [&](const auto& range) {
      for (size_t i = range.begin(); i != range.end(); ++i) edges[i] = Edge{parts[0][i].s, parts[0][i].o};
    });
    return;
  }
  const Run& largest = *std::max_element(parts.begin(), parts.end(), [](Run a, Run b) { return a.size() < b.size(); });
  const size_t slices = std::clamp<size_t>(largest.size() >> 16, 1, 4 * tbb::this_task_arena::max_concurrency());
  std::vector<uint32_t> firstSubjects{0};  // of each slice
  for (size_t k = 1; k < slices; ++k) {
    const uint32_t s = largest[k * largest.size() / slices].s;
    if (s > firstSubjects.back()) firstSubjects.push_back(s);
  }
  std::vector<std::vector<Edge>> merged(firstSubjects.size());
  tbb::parallel_for(size_t{0}, firstSubjects.size(), [&](size_t k) {
    std::vector<Run> slice;
    for (const Run& part : parts) {
      auto from = [&](uint32_t s) {
        return std::partition_point(part.begin(), part.end(), [&](const Triple& t) { return t.s < s; });
      };
      const auto begin = from(firstSubjects[k]);
      const auto end = k + 1 < firstSubjects.size() ? from(firstSubjects[k + 1]) : part.end();
      slice.push_back(Run(begin, end));
    }
    mergeInto(slice, merged[k]);
  });
  for (const auto& slice : merged) edges.insert(edges.end(), slice.begin(), slice.end());
}

}  // namespace

TripleSorter::TripleSorter(std::filesystem::path scratchDir, uint64_t memoryBudgetBytes)
    : scratchDir_(std::move(scratchDir)),
      capacity_(std::max<uint64_t>(memoryBudgetBytes / sizeof(Triple), 1024)) {
  // All of it now, so that the vector never doubles past the budget; pages
  // become memory only as triples arrive. A budget beyond what the system
  // will map grows as it goes instead.
  try {
    buffer_.reserve(capacity_);
  } catch (const std::bad_alloc&) {
  }
}

TripleSorter::~TripleSorter() {
  std::error_code ignored;
  for (const auto& run : runs_) std::filesystem::remove(run, ignored);
}

void TripleSorter::sortUnique() {
  const auto start = std::chrono::steady_clock::now();
  tbb::parallel_sort(buffer_.begin(), buffer_.end());
  buffer_.erase(std::unique(buffer_.begin(), buffer_.end()), buffer_.end());
  sortSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void TripleSorter::spill() {
  std::filesystem::create_directories(scratchDir_);
  runs_.push_back(scratchDir_ / ("run-" + std::to_string(runs_.size())));
  writeRun(runs_.back());
}

void TripleSorter::writeRun(const std::filesystem::path& path) {
  sortUnique();
  OutputFile file(path);
  file.writeArray(std::span<const Triple>(buffer_));
  file.commit();
  buffer_.clear();
}

void TripleSorter::renumberVertices(const std::function<uint32_t(uint32_t)>& renumber) {
  auto renumberBuffer = [&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, buffer_.size(), size_t{1} << 16),
                      [&](const tbb::blocked_range<size_t>& range) {
                        for (size_t i = range.begin(); i != range.end(); ++i) {
                          buffer_[i].s = renumber(buffer_[i].s);
                          buffer_[i].o = renumber(buffer_[i].o);
                        }
                      });
  };
  if (runs_.empty()) return renumberBuffer();  // sorted by forEachPredicate
  if (!buffer_.empty()) spill();
  // One run at a time through the buffer: memory stays at the budget.
  for (const auto& run : runs_) {
    {
      MappedFile mapped(run);
      const auto bytes = mapped.bytes();
      const auto* triples = reinterpret_cast<const Triple*>(bytes.data());
      buffer_.assign(triples, triples + bytes.size() / sizeof(Triple));
    }
    renumberBuffer();
    writeRun(run);
  }
}

TripleSorter::PredicateReader TripleSorter::readPredicates() {
  sortUnique();
  PredicateReader reader;
  for (const auto& run : runs_) {
    reader.mapped_.emplace_back(run);
    auto bytes = reader.mapped_.back().bytes();
    reader.runs_.push_back({reinterpret_cast<const Triple*>(bytes.data()), bytes.size() / sizeof(Triple)});
  }
  if (!buffer_.empty()) reader.runs_.push_back(buffer_);
  return reader;
}

bool TripleSorter::PredicateReader::next(uint32_t& predicate, std::vector<Edge>& edges) {
  auto first = std::min_element(runs_.begin(), runs_.end(), [](Run a, Run b) {
    return !a.empty() && (b.empty() || a.front().p < b.front().p);
  });
  if (first == runs_.end() || first->empty()) return false;
  predicate = first->front().p;
  mergePredicate(takePredicate(runs_, predicate), edges);
  return true;
}

}  // namespace gsparql
