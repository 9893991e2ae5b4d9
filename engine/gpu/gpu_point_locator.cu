#include "engine/gpu/gpu_point_locator.cuh"

#include <algorithm>
#include <span>
#include <vector>

#include "engine/gpu/cuda_check.cuh"
#include "engine/geo/shape_grid.h"
#include "engine/gpu/gpu_device.cuh"

namespace gsparql::engine::gpu {
namespace {

constexpr uint32_t kWarp = 32;
constexpr uint32_t kThreadsPerBlock = 256;
constexpr uint32_t kFirstSlots = 4;  // shapes a point is not exterior to, kept per point on the first try

struct NoRoom {};

// Device memory from cudaMalloc, freed with it.
template <typename T>
class Buffer {
 public:
  explicit Buffer(size_t count) {
    if (count > 0 && cudaMalloc(&data_, count * sizeof(T)) != cudaSuccess) {
      cudaGetLastError();  // the failed allocation is not a sticky error: clear it
      throw NoRoom{};
    }
    size_ = count;
  }
  ~Buffer() { cudaFree(data_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  T* get() const { return data_; }
  size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

// `buffer` with room for `count` at least, made anew only when it had less:
// batch after batch reuses it (cudaFree waits for the whole device).
template <typename T>
const Buffer<T>& atLeast(std::unique_ptr<Buffer<T>>& buffer, size_t count) {
  if (!buffer || buffer->size() < count) {
    buffer.reset();
    buffer = std::make_unique<Buffer<T>>(count);
  }
  return *buffer;
}

template <typename T>
void upload(const Buffer<T>& to, std::span<const T> from, cudaStream_t stream) {
  GSPARQL_CUDA(cudaMemcpyAsync(to.get(), from.data(), from.size_bytes(), cudaMemcpyHostToDevice, stream));
}

template <typename T>
std::vector<T> download(const Buffer<T>& from, size_t count, cudaStream_t stream) {
  std::vector<T> to(count);
  GSPARQL_CUDA(cudaMemcpyAsync(to.data(), from.get(), count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GSPARQL_CUDA(cudaStreamSynchronize(stream));
  return to;
}

struct Shapes {
  const double* x;
  const double* y;
  const uint32_t* ringStarts;
  const uint32_t* shapeRings;
  const geo::Box* boxes;
  geo::GridShape grid;
  const uint32_t* cellStarts;
  const uint32_t* cellShapes;
};

__device__ uint32_t warpSum(uint32_t value) {
  for (uint32_t offset = kWarp / 2; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

// A warp per point: its lanes take every 32nd segment of each ring of a
// shape of the point's cell whose envelope holds the point, and merge their counts. The first
// `slots` shapes the point is not exterior to are written at its slots;
// counts[point] says how many there were.
__global__ void locatePoints(Shapes shapes, const double* px, const double* py, uint32_t points, uint32_t slots,
                             uint32_t* counts, uint32_t* found, uint8_t* places) {
  const uint64_t point = (uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / kWarp;
  const uint32_t lane = threadIdx.x % kWarp;
  if (point >= points) return;  // the whole warp: every lane has the same point
  const double x = px[point], y = py[point];
  uint32_t n = 0, first = 0, end = 0;
  if (const uint32_t cell = shapes.grid.cellOf(x, y); cell != geo::GridShape::kNoCell) {
    first = shapes.cellStarts[cell];
    end = shapes.cellStarts[cell + 1];
  }
  for (uint32_t i = first; i < end; ++i) {
    const uint32_t s = shapes.cellShapes[i];
    const geo::Box b = shapes.boxes[s];
    if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) continue;
    geo::RayCrossing ray{x, y};
    for (uint32_t r = shapes.shapeRings[s]; r < shapes.shapeRings[s + 1]; ++r) {
      const uint32_t end = shapes.ringStarts[r + 1];
      for (uint32_t v = shapes.ringStarts[r] + lane; v + 1 < end; v += kWarp) {
        ray.count(shapes.x[v], shapes.y[v], shapes.x[v + 1], shapes.y[v + 1]);
      }
    }
    geo::RayCrossing total{x, y};
    total.merge(warpSum(ray.crossings), __any_sync(0xffffffffu, ray.onSegment),
                __any_sync(0xffffffffu, ray.undecided));
    const geo::PointPlace place = total.place();
    if (place == geo::PointPlace::Exterior) continue;
    if (lane == 0 && n < slots) {
      found[point * slots + n] = s;
      places[point * slots + n] = static_cast<uint8_t>(place);
    }
    ++n;
  }
  if (lane == 0) counts[point] = n;
}

class GpuPointLocator final : public geo::PointLocator {
 public:
  GpuPointLocator(std::shared_ptr<Device> device, const geo::RingSet& shapes, const geo::ShapeGrid& grid)
      : device_(std::move(device)), grid_(grid.shape), x_(shapes.x.size()), y_(shapes.y.size()),
        ringStarts_(shapes.ringStarts.size()), shapeRings_(shapes.shapeRings.size()), boxes_(shapes.boxes.size()),
        cellStarts_(grid.cellStarts.size()), cellShapes_(grid.cellShapes.size()) {
    GSPARQL_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    upload<double>(x_, shapes.x, stream_);
    upload<double>(y_, shapes.y, stream_);
    upload<uint32_t>(ringStarts_, shapes.ringStarts, stream_);
    upload<uint32_t>(shapeRings_, shapes.shapeRings, stream_);
    upload<geo::Box>(boxes_, shapes.boxes, stream_);
    upload<uint32_t>(cellStarts_, grid.cellStarts, stream_);
    upload<uint32_t>(cellShapes_, grid.cellShapes, stream_);
    GSPARQL_CUDA(cudaStreamSynchronize(stream_));
  }
  ~GpuPointLocator() override {
    device_->select();  // its buffers, members, are freed after this, on its device
    cudaStreamDestroy(stream_);
  }

  std::vector<geo::PlacedPoint> locate(std::span<const double> x, std::span<const double> y) override {
    device_->select();
    try {
      return locateOnDevice(x, y);
    } catch (const NoRoom&) {
      throw ExecutorDeclined("the GPU has no room for the points to locate", ExecutorDeclined::When::OutOfMemory);
    }
  }

 private:
  std::vector<geo::PlacedPoint> locateOnDevice(std::span<const double> x, std::span<const double> y) {
    const auto points = static_cast<uint32_t>(x.size());
    if (points == 0) return {};
    const Buffer<double>& px = atLeast(px_, points);
    const Buffer<double>& py = atLeast(py_, points);
    upload(px, x, stream_);
    upload(py, y, stream_);
    const Shapes shapes{x_.get(),     y_.get(), ringStarts_.get(),  shapeRings_.get(),
                        boxes_.get(), grid_,    cellStarts_.get(), cellShapes_.get()};
    const uint32_t blocks = static_cast<uint32_t>((uint64_t{points} * kWarp + kThreadsPerBlock - 1) / kThreadsPerBlock);
    // A point in more shapes than the slots hold (overlapping shapes) has
    // all its slots again, as many as the most any point needed.
    for (uint32_t slots = kFirstSlots;;) {
      const Buffer<uint32_t>& counts = atLeast(counts_, points);
      const Buffer<uint32_t>& found = atLeast(found_, size_t{points} * slots);
      const Buffer<uint8_t>& places = atLeast(places_, size_t{points} * slots);
      locatePoints<<<blocks, kThreadsPerBlock, 0, stream_>>>(shapes, px.get(), py.get(), points, slots, counts.get(),
                                                             found.get(), places.get());
      GSPARQL_CUDA(cudaGetLastError());
      const std::vector<uint32_t> count = download(counts, points, stream_);
      const uint32_t most = *std::max_element(count.begin(), count.end());
      if (most > slots) {
        slots = most;
        continue;
      }
      return placed(count, download(found, size_t{points} * slots, stream_),
                    download(places, size_t{points} * slots, stream_), slots);
    }
  }

  static std::vector<geo::PlacedPoint> placed(const std::vector<uint32_t>& count, const std::vector<uint32_t>& found,
                                              const std::vector<uint8_t>& places, uint32_t slots) {
    std::vector<geo::PlacedPoint> out;
    for (uint32_t p = 0; p < count.size(); ++p) {
      for (uint32_t i = 0; i < count[p]; ++i) {
        const size_t at = size_t{p} * slots + i;
        out.push_back({p, found[at], static_cast<geo::PointPlace>(places[at])});
      }
    }
    return out;
  }

  std::shared_ptr<Device> device_;
  geo::GridShape grid_;
  Buffer<double> x_, y_;
  Buffer<uint32_t> ringStarts_, shapeRings_;
  Buffer<geo::Box> boxes_;
  Buffer<uint32_t> cellStarts_, cellShapes_;
  // The points of a batch and what the kernel found, kept for the next batch.
  std::unique_ptr<Buffer<double>> px_, py_;
  std::unique_ptr<Buffer<uint32_t>> counts_, found_;
  std::unique_ptr<Buffer<uint8_t>> places_;
  cudaStream_t stream_ = nullptr;
};

}  // namespace

std::shared_ptr<geo::PointLocator> makePointLocator(std::shared_ptr<Device> device, const geo::RingSet& shapes) {
  if (shapes.shapes() == 0) return nullptr;
  const geo::ShapeGrid grid = geo::makeShapeGrid(shapes.boxes);
  device->select();
  try {
    return std::make_shared<GpuPointLocator>(std::move(device), shapes, grid);
  } catch (const NoRoom&) {
    return nullptr;
  }
}

}  // namespace gsparql::engine::gpu
