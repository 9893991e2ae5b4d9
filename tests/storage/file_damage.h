#pragma once
// Damaging database files on purpose, for the corruption tests. Generation
// files are written read-only; these make them writable first.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

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

// A file's kind: its path in the database with each run of digits as "N"
// ("gen-N/dictionary/N.sst", "gen-N/delta-N").
inline std::string fileKind(const std::filesystem::path& relative) {
  std::string kind;
  for (char c : relative.string()) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      kind += c;
    } else if (kind.empty() || kind.back() != 'N') {
      kind += 'N';
    }
  }
  return kind;
}

// The files of a database that hold any bytes (paths relative to `db`), by kind.
inline std::map<std::string, std::vector<std::filesystem::path>> filesByKind(const std::filesystem::path& db) {
  std::map<std::string, std::vector<std::filesystem::path>> kinds;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(db)) {
    if (!entry.is_regular_file() || entry.file_size() == 0) continue;
    const auto relative = std::filesystem::relative(entry.path(), db);
    kinds[fileKind(relative)].push_back(relative);
  }
  return kinds;
}

// Whether an error message names `file`: its path, or its folder's and its
// name. For RocksDB's own files the dictionary's folder is enough: RocksDB's
// status, which the message quotes, names the file it failed on, which for
// a damaged CURRENT is the missing MANIFEST that it names.
inline bool namesFile(std::string_view message, const std::filesystem::path& file) {
  const auto has = [&](const std::filesystem::path& p) { return message.find(p.string()) != std::string_view::npos; };
  const auto folder = file.parent_path();
  return has(file) || (has(folder) && (has(file.filename()) || folder.filename() == "dictionary"));
}

}  // namespace gsparql::test
