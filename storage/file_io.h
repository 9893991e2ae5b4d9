#pragma once
// Small POSIX helpers: files written here are durable once syncFile returns,
// which is what makes generation switches crash-safe.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace gsparql {

class OutputFile {
 public:
  explicit OutputFile(const std::filesystem::path& path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  void write(const void* data, size_t bytes);
  template <typename T>
  void writeArray(std::span<const T> values) { write(values.data(), values.size_bytes()); }
  void padTo(uint64_t alignment);
  uint64_t position() const { return position_; }
  void writeAt(uint64_t offset, const void* data, size_t bytes);
  // Flushes, fsyncs and closes; the destructor closes without syncing.
  void commit();

 private:
  void flushBuffer();

  std::filesystem::path path_;
  int fd_ = -1;
  uint64_t position_ = 0;
  std::string buffer_;
};

void writeFileDurably(const std::filesystem::path& path, std::string_view content);
std::string readWholeFile(const std::filesystem::path& path);
void syncDirectory(const std::filesystem::path& dir);
// fsyncs every file below `dir` and the directories themselves.
void syncTree(const std::filesystem::path& dir);

// Read-only memory map of a whole file.
class MappedFile {
 public:
  MappedFile() = default;
  explicit MappedFile(const std::filesystem::path& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  void release();

  std::filesystem::path path_;
  const std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gsparql
