#pragma once
// Bytes of one input: a file or standard input ("-"), decompressed on the fly
// when the name ends in .gz, .bz2, .xz or .zst (standard input is recognised
// by its magic bytes instead).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gsparql {

class InputStream {
 public:
  virtual ~InputStream() = default;
  // Fills up to `capacity` bytes; returns 0 at the end. Throws LoadError.
  virtual size_t read(char* buffer, size_t capacity) = 0;
  // Compressed bytes consumed so far, and the total when known (0 otherwise):
  // what a progress bar can show.
  virtual uint64_t sourceBytesRead() const = 0;
  virtual uint64_t sourceBytesTotal() const = 0;
};

std::unique_ptr<InputStream> openInput(const std::string& name);

// Bytes already in memory (a chunk of a larger input), handed out at most
// `piece` bytes a read.
class MemoryInput final : public InputStream {
 public:
  explicit MemoryInput(std::string_view bytes, size_t piece = SIZE_MAX) : bytes_(bytes), piece_(piece) {}
  size_t read(char* buffer, size_t capacity) override;
  uint64_t sourceBytesRead() const override { return offset_; }
  uint64_t sourceBytesTotal() const override { return bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t piece_;
  size_t offset_ = 0;
};

// The name without a compression suffix ("data.nt.gz" -> "data.nt").
std::string withoutCompressionSuffix(const std::string& name);

}  // namespace gsparql
