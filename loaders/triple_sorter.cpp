#include "loaders/triple_sorter.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <chrono>
#include <queue>

#include "storage/file_io.h"

namespace gsparql {
namespace {

// A sorted sequence of unique triples: a spilled run (mapped) or the buffer.
struct RunCursor {
  std::span<const Triple> triples;
  size_t next = 0;
  bool done() const { return next == triples.size(); }
  const Triple& head() const { return triples[next]; }
};

// Groups a merged, duplicate-free triple stream by predicate.
class PredicateGrouper {
 public:
  explicit PredicateGrouper(const std::function<void(uint32_t, std::span<Edge>)>& visit)
      : visit_(visit) {}
  void push(const Triple& t) {
    if (!edges_.empty() && t.p != predicate_) flush();
    predicate_ = t.p;
    edges_.push_back(Edge{t.s, t.o});
  }
  void flush() {
    if (!edges_.empty()) visit_(predicate_, edges_);
    edges_.clear();
  }

 private:
  const std::function<void(uint32_t, std::span<Edge>)>& visit_;
  uint32_t predicate_ = 0;
  std::vector<Edge> edges_;
};

}  // namespace

TripleSorter::TripleSorter(std::filesystem::path scratchDir, uint64_t memoryBudgetBytes)
    : scratchDir_(std::move(scratchDir)),
      capacity_(std::max<uint64_t>(memoryBudgetBytes / sizeof(Triple), 1024)) {
  buffer_.reserve(std::min<size_t>(capacity_, size_t{1} << 24));
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

uint64_t TripleSorter::forEachPredicate(
    const std::function<void(uint32_t, std::span<Edge>)>& visit) {
  sortUnique();
  std::vector<MappedFile> mapped;
  std::vector<RunCursor> cursors;
  for (const auto& run : runs_) {
    mapped.emplace_back(run);
    auto bytes = mapped.back().bytes();
    cursors.push_back({{reinterpret_cast<const Triple*>(bytes.data()), bytes.size() / sizeof(Triple)}});
  }
  cursors.push_back({buffer_});

  auto later = [&](size_t a, size_t b) { return cursors[b].head() < cursors[a].head(); };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t i = 0; i < cursors.size(); ++i) {
    if (!cursors[i].done()) heap.push(i);
  }
  PredicateGrouper grouper(visit);
  uint64_t unique = 0;
  Triple last{};
  while (!heap.empty()) {
    size_t i = heap.top();
    heap.pop();
    const Triple t = cursors[i].head();
    if (unique == 0 || t != last) {
      grouper.push(t);
      last = t;
      ++unique;
    }
    if (++cursors[i].next, !cursors[i].done()) heap.push(i);
  }
  grouper.flush();
  return unique;
}

}  // namespace gsparql
