#include "loaders/input_stream.h"

#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "gsparql/error.h"

namespace gsparql {
namespace {

enum class Compression { None, Gzip, Bzip2, Xz, Zstd };

constexpr size_t kChunk = 1 << 20;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw LoadError(name + ": " + what);
}

// Raw bytes of a file or of standard input, with a small look-ahead so the
// compression of standard input can be told from its magic bytes.
class RawSource {
 public:
  explicit RawSource(const std::string& name) : name_(name) {
    if (name == "-") {
      fd_ = STDIN_FILENO;
      return;
    }
    fd_ = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(name, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) total_ = static_cast<uint64_t>(st.st_size);
  }
  ~RawSource() {
    if (fd_ != STDIN_FILENO) ::close(fd_);
  }
  RawSource(const RawSource&) = delete;
  RawSource& operator=(const RawSource&) = delete;

  size_t read(char* buffer, size_t capacity) {
    if (peekedUsed_ < peeked_.size()) {
      size_t n = std::min(capacity, peeked_.size() - peekedUsed_);
      std::memcpy(buffer, peeked_.data() + peekedUsed_, n);
      peekedUsed_ += n;
      return n;
    }
    return readFd(buffer, capacity);
  }

  std::string_view peek(size_t bytes) {
    while (peeked_.size() < bytes) {
      char buf[16];
      size_t n = readFd(buf, std::min(sizeof buf, bytes - peeked_.size()));
      if (n == 0) break;
      peeked_.append(buf, n);
    }
    return peeked_;
  }

  uint64_t bytesRead() const { return bytesRead_ - (peeked_.size() - peekedUsed_); }
  uint64_t bytesTotal() const { return total_; }
  const std::string& name() const { return name_; }

 private:
  size_t readFd(char* buffer, size_t capacity) {
    for (;;) {
      ssize_t n = ::read(fd_, buffer, capacity);
      if (n >= 0) {
        bytesRead_ += static_cast<uint64_t>(n);
        return static_cast<size_t>(n);
      }
      if (errno != EINTR) fail(name_, std::string("cannot read: ") + std::strerror(errno));
    }
  }

  std::string name_;
  int fd_ = -1;
  uint64_t total_ = 0;
  uint64_t bytesRead_ = 0;
  std::string peeked_;
  size_t peekedUsed_ = 0;
};

class PlainInput final : public InputStream {
 public:
  explicit PlainInput(std::unique_ptr<RawSource> source) : source_(std::move(source)) {}
  size_t read(char* buffer, size_t capacity) override { return source_->read(buffer, capacity); }
  uint64_t sourceBytesRead() const override { return source_->bytesRead(); }
  uint64_t sourceBytesTotal() const override { return source_->bytesTotal(); }

 private:
  std::unique_ptr<RawSource> source_;
};

// Shared driver: keeps a buffer of compressed bytes and lets the codec turn
// them into output. Concatenated streams (as pigz, pbzip2 and zstd -T write)
// are decoded one after another.
class DecompressingInput : public InputStream {
 public:
  explicit DecompressingInput(std::unique_ptr<RawSource> source)
      : source_(std::move(source)), in_(kChunk) {}

  size_t read(char* buffer, size_t capacity) override {
    for (;;) {
      if (inPos_ == inSize_ && !eof_) {
        inSize_ = source_->read(in_.data(), in_.size());
        inPos_ = 0;
        eof_ = inSize_ == 0;
      }
      size_t consumed = 0;
      size_t produced = decode(in_.data() + inPos_, inSize_ - inPos_, consumed, buffer, capacity);
      inPos_ += consumed;
      if (produced > 0) return produced;
      if (eof_ && inPos_ == inSize_) {
        if (midStream_) fail(source_->name(), "compressed data ends unexpectedly");
        return 0;
      }
    }
  }
  uint64_t sourceBytesRead() const override { return source_->bytesRead(); }
  uint64_t sourceBytesTotal() const override { return source_->bytesTotal(); }

 protected:
  // Decodes from `in`, sets `consumed`, returns bytes written to `out`, and
  // keeps midStream_ true while a stream has begun but not ended. Called with
  // no input once the source is exhausted, so a codec can finish.
  virtual size_t decode(const char* in, size_t inBytes, size_t& consumed, char* out,
                        size_t outBytes) = 0;
  [[noreturn]] void corrupt(const std::string& detail) const {
    fail(source_->name(), "corrupt compressed data (" + detail + ")");
  }
  bool midStream_ = false;

 private:
  std::unique_ptr<RawSource> source_;
  std::vector<char> in_;
  size_t inPos_ = 0, inSize_ = 0;
  bool eof_ = false;
};

class GzipInput final : public DecompressingInput {
 public:
  explicit GzipInput(std::unique_ptr<RawSource> source) : DecompressingInput(std::move(source)) {
    if (inflateInit2(&z_, 15 + 32) != Z_OK) corrupt("zlib init");
  }
  ~GzipInput() override { inflateEnd(&z_); }

 private:
  size_t decode(const char* in, size_t inBytes, size_t& consumed, char* out,
                size_t outBytes) override {
    if (inBytes == 0) return 0;
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    z_.avail_in = static_cast<uInt>(std::min<size_t>(inBytes, kChunk));
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(std::min<size_t>(outBytes, kChunk));
    uInt offered = z_.avail_in;
    int rc = inflate(&z_, Z_NO_FLUSH);
    consumed = offered - z_.avail_in;
    if (rc == Z_STREAM_END) {
      inflateReset(&z_);
      midStream_ = false;
    } else if (rc == Z_OK || rc == Z_BUF_ERROR) {
      midStream_ = true;
    } else {
      corrupt(z_.msg ? z_.msg : "inflate failed");
    }
    return reinterpret_cast<char*>(z_.next_out) - out;
  }
  z_stream z_{};
};

class Bzip2Input final : public DecompressingInput {
 public:
  explicit Bzip2Input(std::unique_ptr<RawSource> source) : DecompressingInput(std::move(source)) {
    init();
  }
  ~Bzip2Input() override { BZ2_bzDecompressEnd(&bz_); }

 private:
  void init() {
    if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK) corrupt("bzip2 init");
  }
  size_t decode(const char* in, size_t inBytes, size_t& consumed, char* out,
                size_t outBytes) override {
    if (inBytes == 0) return 0;
    bz_.next_in = const_cast<char*>(in);
    bz_.avail_in = static_cast<unsigned>(std::min<size_t>(inBytes, kChunk));
    bz_.next_out = out;
    bz_.avail_out = static_cast<unsigned>(std::min<size_t>(outBytes, kChunk));
    unsigned offered = bz_.avail_in;
    int rc = BZ2_bzDecompress(&bz_);
    consumed = offered - bz_.avail_in;
    size_t produced = static_cast<size_t>(bz_.next_out - out);
    if (rc == BZ_STREAM_END) {
      BZ2_bzDecompressEnd(&bz_);
      bz_ = {};
      init();
      midStream_ = false;
    } else if (rc == BZ_OK) {
      midStream_ = true;
    } else {
      corrupt("bzip2 error " + std::to_string(rc));
    }
    return produced;
  }
  bz_stream bz_{};
};

class XzInput final : public DecompressingInput {
 public:
  explicit XzInput(std::unique_ptr<RawSource> source) : DecompressingInput(std::move(source)) {
    if (lzma_stream_decoder(&xz_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) corrupt("xz init");
  }
  ~XzInput() override { lzma_end(&xz_); }

 private:
  size_t decode(const char* in, size_t inBytes, size_t& consumed, char* out,
                size_t outBytes) override {
    // A file of no bytes is no input, as gzip, bzip2 and zstd read it.
    if (inBytes == 0 && xz_.total_in == 0) return 0;
    xz_.next_in = reinterpret_cast<const uint8_t*>(in);
    xz_.avail_in = inBytes;
    xz_.next_out = reinterpret_cast<uint8_t*>(out);
    xz_.avail_out = outBytes;
    // LZMA_FINISH once the input is exhausted lets the concatenated decoder end.
    lzma_ret rc = lzma_code(&xz_, inBytes == 0 ? LZMA_FINISH : LZMA_RUN);
    consumed = inBytes - xz_.avail_in;
    if (rc == LZMA_STREAM_END) {
      midStream_ = false;
    } else if (rc == LZMA_OK || rc == LZMA_BUF_ERROR) {
      midStream_ = true;
    } else {
      corrupt("xz error " + std::to_string(rc));
    }
    return reinterpret_cast<char*>(xz_.next_out) - out;
  }
  lzma_stream xz_ = LZMA_STREAM_INIT;
};

class ZstdInput final : public DecompressingInput {
 public:
  explicit ZstdInput(std::unique_ptr<RawSource> source)
      : DecompressingInput(std::move(source)), z_(ZSTD_createDStream()) {
    // Allow the long windows that `zstd --long` writes (WatDiv SF100 needs 2^27).
    ZSTD_DCtx_setParameter(z_, ZSTD_d_windowLogMax, 31);
  }
  ~ZstdInput() override { ZSTD_freeDStream(z_); }

 private:
  size_t decode(const char* in, size_t inBytes, size_t& consumed, char* out,
                size_t outBytes) override {
    if (inBytes == 0) return 0;
    ZSTD_inBuffer input{in, inBytes, 0};
    ZSTD_outBuffer output{out, outBytes, 0};
    size_t rc = ZSTD_decompressStream(z_, &output, &input);
    if (ZSTD_isError(rc)) corrupt(ZSTD_getErrorName(rc));
    consumed = input.pos;
    midStream_ = rc != 0;
    return output.pos;
  }
  ZSTD_DStream* z_;
};

Compression compressionBySuffix(const std::string& name) {
  auto ends = [&](std::string_view s) { return name.ends_with(s); };
  if (ends(".gz")) return Compression::Gzip;
  if (ends(".bz2")) return Compression::Bzip2;
  if (ends(".xz")) return Compression::Xz;
  if (ends(".zst")) return Compression::Zstd;
  return Compression::None;
}

Compression compressionByMagic(std::string_view head) {
  auto starts = [&](std::string_view magic) { return head.starts_with(magic); };
  if (starts("\x1f\x8b")) return Compression::Gzip;
  if (starts("BZh")) return Compression::Bzip2;
  if (starts("\xfd" "7zXZ")) return Compression::Xz;
  if (starts("\x28\xb5\x2f\xfd")) return Compression::Zstd;
  return Compression::None;
}

}  // namespace

std::unique_ptr<InputStream> openInput(const std::string& name) {
  auto source = std::make_unique<RawSource>(name);
  Compression c = name == "-" ? compressionByMagic(source->peek(6)) : compressionBySuffix(name);
  switch (c) {
    case Compression::Gzip: return std::make_unique<GzipInput>(std::move(source));
    case Compression::Bzip2: return std::make_unique<Bzip2Input>(std::move(source));
    case Compression::Xz: return std::make_unique<XzInput>(std::move(source));
    case Compression::Zstd: return std::make_unique<ZstdInput>(std::move(source));
    case Compression::None: break;
  }
  return std::make_unique<PlainInput>(std::move(source));
}

size_t MemoryInput::read(char* buffer, size_t capacity) {
  const size_t n = std::min({capacity, piece_, bytes_.size() - offset_});
  std::memcpy(buffer, bytes_.data() + offset_, n);
  offset_ += n;
  return n;
}

std::string withoutCompressionSuffix(const std::string& name) {
  for (std::string_view suffix : {".gz", ".bz2", ".xz", ".zst"}) {
    if (name.ends_with(suffix)) return name.substr(0, name.size() - suffix.size());
  }
  return name;
}

}  // namespace gsparql
