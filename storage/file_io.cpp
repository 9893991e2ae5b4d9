#include "storage/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "storage/system_error.h"

namespace gsparql {

void throwSystemError(const std::string& what, const std::string& path) {
  throw StorageError(what + " " + path + ": " + std::strerror(errno));
}

void throwCorrupted(const std::string& path, uint64_t offset, const std::string& what) {
  throw StorageError("database corrupted: " + path + ", offset " + std::to_string(offset) + ": " + what);
}

namespace {
constexpr size_t kBufferBytes = 1 << 20;

void writeAll(int fd, const char* data, size_t bytes, const std::filesystem::path& path) {
  while (bytes > 0) {
    ssize_t n = ::write(fd, data, bytes);
    if (n < 0) {
      if (errno == EINTR) continue;
      throwSystemError("cannot write", path);
    }
    data += n;
    bytes -= static_cast<size_t>(n);
  }
}

void syncPath(const std::filesystem::path& path, int flags) {
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) throwSystemError("cannot open", path);
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) throwSystemError("cannot fsync", path);
}
}  // namespace

OutputFile::OutputFile(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throwSystemError("cannot create", path);
  buffer_.reserve(kBufferBytes);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void OutputFile::write(const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  position_ += bytes;
  if (buffer_.size() + bytes > kBufferBytes) {
    flushBuffer();
    if (bytes >= kBufferBytes) {
      writeAll(fd_, p, bytes, path_);
      return;
    }
  }
  buffer_.append(p, bytes);
}

void OutputFile::padTo(uint64_t alignment) {
  static const char zeros[256] = {};
  uint64_t padding = (alignment - position_ % alignment) % alignment;
  while (padding > 0) {
    size_t n = std::min<uint64_t>(padding, sizeof zeros);
    write(zeros, n);
    padding -= n;
  }
}

void OutputFile::writeAt(uint64_t offset, const void* data, size_t bytes) {
  flushBuffer();
  if (::pwrite(fd_, data, bytes, static_cast<off_t>(offset)) != static_cast<ssize_t>(bytes)) {
    throwSystemError("cannot write", path_);
  }
}

void OutputFile::flushBuffer() {
  writeAll(fd_, buffer_.data(), buffer_.size(), path_);
  buffer_.clear();
}

void OutputFile::commit() {
  flushBuffer();
  if (::fsync(fd_) != 0) throwSystemError("cannot fsync", path_);
  if (::close(fd_) != 0) throwSystemError("cannot close", path_);
  fd_ = -1;
}

void writeFileDurably(const std::filesystem::path& path, std::string_view content) {
  OutputFile file(path);
  file.write(content.data(), content.size());
  file.commit();
}

std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throwSystemError("cannot open", path);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void syncDirectory(const std::filesystem::path& dir) { syncPath(dir, O_RDONLY | O_DIRECTORY); }

void syncTree(const std::filesystem::path& dir) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    syncPath(entry.path(), entry.is_directory() ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  }
  syncDirectory(dir);
}

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throwSystemError("cannot open", path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throwSystemError("cannot stat", path);
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      throwSystemError("cannot map", path);
    }
    data_ = static_cast<const std::byte*>(p);
  }
  ::close(fd);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() { release(); }

void MappedFile::release() {
  if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace gsparql
