#include "engine/gpu/peer_ranges.cuh"

#include <algorithm>
#include <set>

#include "storage/graph_store.h"

namespace gsparql::engine::gpu {
namespace {

// Runs `f` with `gpu` current, then makes the caller's GPU current again.
template <typename F>
auto onGpu(int gpu, F&& f) {
  int caller = 0;
  GSPARQL_CUDA(cudaGetDevice(&caller));
  GSPARQL_CUDA(cudaSetDevice(gpu));
  struct Restore {
    int caller;
    ~Restore() { cudaSetDevice(caller); }
  } restore{caller};
  return f();
}

// A range's largest size: what a reader's cache takes, and at most an eighth
// of a home, so that a home holds several and the last one dealt to it
// overshoots its even share by little; never a few bytes.
uint64_t largestRange(uint64_t bytesPerGpu, uint64_t readerRangeBytes) {
  constexpr uint64_t kLeast = uint64_t{16} << 10;
  return std::max(kLeast, std::min(bytesPerGpu / 8, readerRangeBytes));
}

}  // namespace

bool PeerRanges::peersCanRead(const std::vector<int>& gpus) {
  for (int a : gpus) {
    for (int b : gpus) {
      int can = 0;
      if (a != b && (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can)) return false;
    }
  }
  return true;
}

PeerRanges::PeerRanges(std::vector<int> gpus, uint64_t bytesPerGpu, uint64_t readerRangeBytes)
    : bytesPerGpu_(bytesPerGpu), largestRange_(largestRange(bytesPerGpu, readerRangeBytes)) {
  const std::set<int> distinct(gpus.begin(), gpus.end());
  for (int reader : distinct) {
    onGpu(reader, [&] {
      for (int home : distinct) {
        if (home == reader) continue;
        const cudaError_t status = cudaDeviceEnablePeerAccess(home, 0);
        if (status == cudaErrorPeerAccessAlreadyEnabled) {
          cudaGetLastError();  // enabled by an earlier set: not an error, and not sticky
        } else {
          GSPARQL_CUDA(status);
        }
      }
      return 0;
    });
  }
  for (int gpu : gpus) homes_.push_back({gpu, 0});
}

// Unchecked: a destructor must not throw (a failing GPU is reported by the
// calls before it).
PeerRanges::~PeerRanges() {
  for (auto& [key, e] : entries_) {
    try {
      free(e);
    } catch (const Error&) {
    }
  }
}

bool PeerRanges::fits(uint64_t bytes) const {
  const uint64_t homes = homes_.size();
  return bytes + homes * largestRange_ <= homes * bytesPerGpu_;
}

std::vector<KeyRange> PeerRanges::ranges(const PredicateAdjacency& adjacency) const {
  return keyRanges(adjacency, largestRange_);
}

PeerRanges::Key PeerRanges::keyOf(const GraphStore& store, AdjacencyId id, KeyRange range) {
  return {store.adjacency(id.first).source(id.second), static_cast<uint32_t>(id.first), id.second,
          uint64_t{range.first} << 32 | range.end};
}

PeerRange PeerRanges::acquire(const GraphStore& store, AdjacencyId id, KeyRange range) {
  std::unique_lock lock(mutex_);
  const Key key = keyOf(store, id, range);
  uploaded_.wait(lock, [&] { return !uploading_.contains(key); });
  if (const auto it = entries_.find(key); it != entries_.end()) {
    Entry& e = it->second;
    e.lastUse = ++clock_;
    ++e.holds;
    return {e.view, homes_[e.home].gpu, 0};
  }
  const Entry& e = upload(lock, store, id, range, key);
  return {e.view, homes_[e.home].gpu, e.bytes};
}

// Called as a pass's hold goes (a destructor): never throws. Where no event
// can mark the reader's progress, it waits for the reader's stream instead.
void PeerRanges::release(const GraphStore& store, AdjacencyId id, KeyRange range, cudaStream_t readerStream) noexcept {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(keyOf(store, id, range));
  if (it == entries_.end()) return;  // not held here: nothing to release
  Entry& e = it->second;
  --e.holds;
  std::erase_if(e.readers, [](const auto& reader) { return cudaEventQuery(reader->get()) == cudaSuccess; });
  try {
    e.readers.push_back(std::make_unique<CudaEvent>());
    GSPARQL_CUDA(cudaEventRecord(e.readers.back()->get(), readerStream));
  } catch (const std::exception&) {
    cudaGetLastError();
    cudaStreamSynchronize(readerStream);
  }
}

uint64_t PeerRanges::bytesOnGpu(int gpu) const {
  std::lock_guard lock(mutex_);
  uint64_t bytes = 0;
  for (const Home& h : homes_) bytes += h.gpu == gpu ? h.bytes : 0;
  return bytes;
}

// To the home holding the fewest bytes, after room is made there: keys,
// offsets (as in the file: lookups subtract the range's first one) and
// neighbours in one allocation.
PeerRanges::Entry& PeerRanges::upload(std::unique_lock<std::mutex>& lock, const GraphStore& store, AdjacencyId id,
                                      KeyRange range, const Key& key) {
  const PredicateAdjacency& host = store.adjacency(id.first).predicate(id.second);
  const uint32_t keys = range.end - range.first;
  const uint32_t firstNeighbour = host.offsets()[range.first];
  const uint32_t neighbours = host.offsets()[range.end] - firstNeighbour;
  Entry e;
  e.home = std::min_element(homes_.begin(), homes_.end(), [](const Home& a, const Home& b) { return a.bytes < b.bytes; }) -
           homes_.begin();
  e.bytes = sizeof(uint32_t) * (uint64_t{keys} + keys + 1 + neighbours);
  evictFor(e.home, e.bytes);
  const int gpu = homes_[e.home].gpu;
  onGpu(gpu, [&] {
    const cudaError_t status = cudaMalloc(&e.memory, e.bytes);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw DeviceOutOfMemory(e.bytes);
    }
    return GSPARQL_CUDA(status);
  });
  homes_[e.home].bytes += e.bytes;
  uploading_.insert(key);
  lock.unlock();
  auto* words = static_cast<uint32_t*>(e.memory);
  const auto copy = [&] {
    GSPARQL_CUDA(cudaMemcpy(words, host.keys().data() + range.first, sizeof(uint32_t) * keys, cudaMemcpyHostToDevice));
    GSPARQL_CUDA(cudaMemcpy(words + keys, host.offsets().data() + range.first, sizeof(uint32_t) * (keys + 1),
                            cudaMemcpyHostToDevice));
    GSPARQL_CUDA(cudaMemcpy(words + 2 * keys + 1, host.neighbours().data() + firstNeighbour,
                            sizeof(uint32_t) * neighbours, cudaMemcpyHostToDevice));
    return 0;
  };
  try {
    onGpu(gpu, copy);
  } catch (...) {  // the room goes back; a query waiting for the range uploads it itself
    lock.lock();
    uploading_.erase(key);
    free(e);
    uploaded_.notify_all();
    throw;
  }
  e.view = {nullptr, nullptr, words, words + keys, words + 2 * keys + 1, keys, 0};
  e.holds = 1;
  lock.lock();
  e.lastUse = ++clock_;
  Entry& kept = entries_.emplace(key, std::move(e)).first->second;
  uploading_.erase(key);
  uploaded_.notify_all();
  return kept;
}

// Least recently used first, never a held range: over budget rather than
// fail where every range is held.
void PeerRanges::evictFor(size_t home, uint64_t bytes) {
  while (homes_[home].bytes + bytes > bytesPerGpu_) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      const Entry& e = it->second;
      if (e.home != home || e.holds > 0) continue;
      if (victim == entries_.end() || e.lastUse < victim->second.lastUse) victim = it;
    }
    if (victim == entries_.end()) return;
    free(victim->second);
    entries_.erase(victim);
  }
}

// After every pass that read it.
void PeerRanges::free(Entry& e) {
  for (auto& reader : e.readers) GSPARQL_CUDA(cudaEventSynchronize(reader->get()));
  onGpu(homes_[e.home].gpu, [&] {
    GSPARQL_CUDA(cudaFree(e.memory));
    return 0;
  });
  homes_[e.home].bytes -= e.bytes;
}

}  // namespace gsparql::engine::gpu
