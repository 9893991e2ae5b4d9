#pragma once
// Operators that evaluate an expression per row (Filter, Extend, GroupBy)
// split a large batch into chunks that the query's threads take in turn: the TBB
// arena the query runs in, which the server sizes to its share of the cores
// per worker (server/worker_pool.cpp). A thread evaluates with state of its
// own (an Environment's memo, the values kept by key), found by its slot in
// the arena; the chunks' results are put together in row order, so the rows
// come out as one thread gives them.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/physical/table.h"
#include "engine/value/term_codec.h"

namespace gsparql::engine {

inline constexpr size_t kRowsPerChunk = 1024;
// Fewer rows stay on the calling thread: waking others costs tens of microseconds.
inline constexpr size_t kRowsToSplit = 4 * kRowsPerChunk;

// How many thread slots the arena the caller runs in has.
inline size_t threadSlots() { return static_cast<size_t>(std::max(tbb::this_task_arena::max_concurrency(), 1)); }

// Whether rows [0, rows) are worth splitting across threads.
inline bool worthSplitting(size_t rows) { return rows >= kRowsToSplit && threadSlots() > 1; }

// Calls work(task, slot) for tasks [0, tasks) on the arena's threads; `slot`
// is below threadSlots() and no two calls that run at once share it. A task
// is isolated: a thread waiting inside it (on a check of a file's block,
// say) takes no other task meanwhile.
template <class Work>
void forEachTask(size_t tasks, const Work& work) {
  tbb::parallel_for(size_t{0}, tasks, [&](size_t t) {
    const auto slot = static_cast<size_t>(tbb::this_task_arena::current_thread_index());
    tbb::this_task_arena::isolate([&] { work(t, slot); });
  });
}

// Calls work(begin, end, slot) for chunks covering rows [0, rows), as forEachTask.
template <class Work>
void forEachChunk(size_t rows, const Work& work) {
  const size_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  forEachTask(chunks, [&](size_t c, size_t slot) {
    work(c * kRowsPerChunk, std::min(rows, (c + 1) * kRowsPerChunk), slot);
  });
}

// Decodes what reading `columns` of `table` through the codec would decode,
// so that threads sharing the codec only read it.
inline void decodeForSharedReads(const Table& table, const std::vector<size_t>& columns, TermCodec& terms) {
  for (const size_t c : columns) {
    const Column& column = table.columns[c];
    column.holdsOnlyVertices() ? terms.prefetch({}, column.vertices()) : terms.prefetch(column.wideValues());
  }
}

}  // namespace gsparql::engine
