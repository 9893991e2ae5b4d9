#pragma once
// SGSI's four-layer load balance for a join step on the general path
// (docs/gpu.md): a row whose candidates are few goes to one warp; larger
// rows are pooled, several to a block whose warps share their candidates; a
// larger row gets a whole block; the largest are split across blocks. The
// thresholds are powers of two picked per step from a histogram of the rows'
// candidate counts. Plain C++ (the host picks the thresholds, the binning
// kernel shares layerOf), so tests check the choice without a GPU.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "gsparql/error.h"

#if defined(__CUDACC__)
#define GSPARQL_LB_HOST_DEVICE __host__ __device__
#else
#define GSPARQL_LB_HOST_DEVICE
#endif

namespace gsparql::engine::gpu {

inline constexpr uint32_t kBlockThreads = 256;  // threads of a filter block: one block round of candidates
inline constexpr uint32_t kMinWarpRow = 64;     // a row of two warp rounds or fewer always stays with one warp
inline constexpr uint32_t kMaxPoolRuns = 32;    // rows pooled in one block at most (its shared arrays)

// Bin b counts the rows with 2^(b-1) < candidates <= 2^b (bin 0: exactly
// one); rows without candidates have no work and no bin. A power-of-two
// threshold 2^k thus splits the bins exactly: rows <= 2^k are bins 0..k.
inline constexpr int kWorkBins = 33;
using WorkHistogram = std::array<uint32_t, kWorkBins>;

GSPARQL_LB_HOST_DEVICE inline int workBin(uint32_t candidates) {  // candidates >= 1
#if defined(__CUDA_ARCH__)
  return 32 - __clz(static_cast<int>(candidates - 1));
#else
  return std::bit_width(candidates - 1);
#endif
}

// The most candidates a row of each of the first three layers has; rows with
// more than `block` are split into pieces of `block` candidates.
struct Thresholds {
  uint32_t warp = 0, pooled = 0, block = 0;
  friend bool operator==(const Thresholds&, const Thresholds&) = default;
};

enum class Layer : uint32_t { Warp, Pooled, Block, Split };
inline constexpr int kLayers = 4;

GSPARQL_LB_HOST_DEVICE inline Layer layerOf(uint32_t candidates, const Thresholds& t) {
  if (candidates <= t.warp) return Layer::Warp;
  if (candidates <= t.pooled) return Layer::Pooled;
  return candidates <= t.block ? Layer::Block : Layer::Split;
}

GSPARQL_LB_HOST_DEVICE inline uint32_t piecesOf(uint32_t candidates, const Thresholds& t) {
  return layerOf(candidates, t) == Layer::Split ? (candidates - 1) / t.block + 1 : 1;
}

// How many warps of the warp layer's kernel, and blocks of the block
// layers' kernel, the device keeps resident at once.
struct DeviceShape {
  uint64_t warps = 0, blocks = 0;
};

// A row of bin b counted at its bin's middle (bins 0 and 1 hold one value each).
inline uint64_t binWork(int b) { return b < 2 ? uint64_t{1} << b : uint64_t{3} << (b - 2); }

// The largest power of two e >= least for which the rows of bins firstBin..log2(e)
// hold at least e candidates for each of `units` units: given one unit
// each, even the largest of those rows does not outlast an even share of
// their work. Bin 32 (more than 2^31 candidates) is always split.
inline uint32_t shareEdge(const WorkHistogram& h, int firstBin, uint32_t least, uint64_t units) {
  uint32_t edge = least;
  uint64_t work = 0;
  for (int b = firstBin; b < kWorkBins - 1; ++b) {
    work += h[b] * binWork(b);
    const uint32_t e = uint32_t{1} << b;
    if (e > edge && e * units <= work) edge = e;
  }
  return edge;
}

// Thresholds given as options: powers of two, ascending, the last at least a
// block round (split pieces start at a chunk of the survivor counts).
inline void checkThresholds(const Thresholds& t) {
  const bool valid = std::has_single_bit(t.warp) && std::has_single_bit(t.pooled) &&
                     std::has_single_bit(t.block) && t.warp <= t.pooled && t.pooled <= t.block &&
                     t.block >= kBlockThreads;
  if (!valid) {
    throw Error("load-balance thresholds must be powers of two, warp <= pooled <= block, block >= " +
                std::to_string(kBlockThreads) + "; got " + std::to_string(t.warp) + "/" + std::to_string(t.pooled) +
                "/" + std::to_string(t.block));
  }
}

// `forced` (all zero: none) wins; otherwise the warp threshold is the share
// edge of resident warps over all rows, at least kMinWarpRow; rows up to a
// block round are pooled; the block threshold is the share edge of resident
// blocks over the rows above the pooled ones, at least the pooled threshold.
inline Thresholds chooseThresholds(const WorkHistogram& h, const DeviceShape& d, const Thresholds& forced) {
  if (forced != Thresholds{}) {
    checkThresholds(forced);
    return forced;
  }
  Thresholds t;
  t.warp = shareEdge(h, 0, kMinWarpRow, d.warps);
  t.pooled = std::max(t.warp, kBlockThreads);
  t.block = shareEdge(h, workBin(t.pooled) + 1, t.pooled, d.blocks);
  return t;
}

// Rows pooled in one block: enough that the pool fills a block round even
// when each row is just above the warp threshold.
inline uint32_t poolRows(const Thresholds& t) { return std::clamp(kBlockThreads / t.warp, 1u, kMaxPoolRuns); }

// Rows of each layer, exact for power-of-two thresholds, and the entries of
// the block queue: one per block row plus a bound on the split rows' pieces.
struct LayerSizes {
  std::array<uint32_t, kLayers> rows{};
  uint64_t blockRuns = 0;
};

inline LayerSizes layerSizes(const WorkHistogram& h, const Thresholds& t) {
  LayerSizes s;
  for (int b = 0; b < kWorkBins; ++b) {
    const uint64_t most = uint64_t{1} << b;  // the bin's largest row; bin 32's exceeds any threshold
    const Layer layer = b == kWorkBins - 1 ? Layer::Split : layerOf(static_cast<uint32_t>(most), t);
    s.rows[static_cast<int>(layer)] += h[b];
    s.blockRuns += layer == Layer::Block ? h[b] : layer == Layer::Split ? h[b] * (most / t.block) : 0;
  }
  return s;
}

// One general-path step (or slice) for the profile note.
struct StepLayers {
  Thresholds thresholds;
  LayerSizes sizes;
};

inline std::string describeLayers(const std::vector<StepLayers>& steps) {
  if (steps.empty()) return {};
  std::string out = "rows per load-balance layer warp/pooled/block/split (thresholds in candidates):";
  for (const StepLayers& s : steps) {
    const auto& r = s.sizes.rows;
    out += (&s == &steps.front() ? " " : ", ") + std::to_string(r[0]) + "/" + std::to_string(r[1]) + "/" + std::to_string(r[2]) + "/" +
           std::to_string(r[3]) + " (" + std::to_string(s.thresholds.warp) + "/" + std::to_string(s.thresholds.pooled) +
           "/" + std::to_string(s.thresholds.block) + ")";
  }
  return out + "; ";
}

}  // namespace gsparql::engine::gpu

#undef GSPARQL_LB_HOST_DEVICE
