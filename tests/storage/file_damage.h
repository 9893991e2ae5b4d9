#pragma once
// Damaging database files on purpose, for the corruption tests. Generation
// files are written read-only; these make them writable first.
#include <filesystem>
#include <fstream>

namespace gsparql::test {

inline void makeWritable(const std::filesystem::path& file) {
  std::filesystem::permissions(file, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
}

// XORs the byte at `offset` with `mask`: doing it twice restores the file.
inline void flipBits(const std::filesystem::path& file, std::streamoff offset, unsigned char mask = 0x5a) {
  makeWritable(file);
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(offset);
  char c = static_cast<char>(f.get());
  f.seekp(offset);
  f.put(static_cast<char>(c ^ static_cast<char>(mask)));
}

}  // namespace gsparql::test
