#pragma once
// The 64-byte header that starts the generation's flat files (`values`,
// `terms`): magic, format version, and a checksum of the header itself as its
// last field. Opening a file checks these before trusting any other field.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>

#include "storage/checksum.h"
#include "storage/system_error.h"

namespace gsparql {

// Throws "database corrupted: <path>, offset <offset>: <what>" unless `ok`.
inline void requireIntact(bool ok, const std::filesystem::path& path, const std::string& what, uint64_t offset = 0) {
  if (!ok) throwCorrupted(path.string(), offset, what);
}

template <typename Header>
uint32_t headerChecksum(const Header& header) {
  return crc32Update(0, &header, offsetof(Header, headerChecksum));
}

// Stamps magic, version and checksum on a header whose other fields are set.
template <typename Header>
void sealHeader(Header& header, const char (&magic)[8], uint32_t version) {
  std::memcpy(header.magic, magic, sizeof header.magic);
  header.version = version;
  header.headerChecksum = headerChecksum(header);
}

// The header at the start of `bytes`, checked for length, magic, checksum
// and a version from `oldest` to `newest`.
template <typename Header>
Header readHeader(std::span<const std::byte> bytes, const std::filesystem::path& path, const char (&magic)[8],
                  uint32_t oldest, uint32_t newest) {
  static_assert(sizeof(Header) == 64 && offsetof(Header, headerChecksum) == 60);
  requireIntact(bytes.size() >= sizeof(Header), path, "shorter than its header");
  Header header;
  std::memcpy(&header, bytes.data(), sizeof header);
  requireIntact(std::memcmp(header.magic, magic, sizeof header.magic) == 0, path, "bad magic");
  requireIntact(header.headerChecksum == headerChecksum(header), path, "header checksum mismatch");
  requireIntact(header.version >= oldest && header.version <= newest, path,
                "format version " + std::to_string(header.version) + ", expected " + std::to_string(oldest) + " to " +
                    std::to_string(newest));
  return header;
}

}  // namespace gsparql
