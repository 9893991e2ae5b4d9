#include "storage/generations.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "storage/crash_point.h"
#include "storage/file_io.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

constexpr const char* kCurrent = "CURRENT";
constexpr const char* kScratchSuffix = ".incomplete";

std::string generationName(uint64_t number) {
  char name[32];
  std::snprintf(name, sizeof name, "gen-%06llu", static_cast<unsigned long long>(number));
  return name;
}

std::optional<uint64_t> parseGenerationName(std::string_view name) {
  if (!name.starts_with("gen-") || name.size() < 5) return std::nullopt;
  uint64_t n = 0;
  for (char c : name.substr(4)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

void removeStaleEntries(const std::filesystem::path& root, const std::string& keep) {
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    bool generationLike = name.starts_with("gen-");
    if (generationLike && name != keep) std::filesystem::remove_all(entry.path());
  }
}

}  // namespace

std::optional<Generation> currentGeneration(const std::filesystem::path& root) {
  auto current = root / kCurrent;
  if (!std::filesystem::exists(current)) return std::nullopt;
  std::string name = readWholeFile(current);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  auto number = parseGenerationName(name);
  if (!number || !std::filesystem::is_directory(root / name)) {
    throw StorageError("corrupt database " + root.string() + ": CURRENT names '" + name +
                       "', which is not a generation folder");
  }
  return Generation{*number, root / name};
}

GenerationWriter::GenerationWriter(const std::filesystem::path& root) : root_(root) {
  std::filesystem::create_directories(root);
  auto lockPath = root / "LOCK";
  lockFd_ = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd_ < 0) throwSystemError("cannot open", lockPath);
  if (::flock(lockFd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lockFd_);
    throw StorageError("database " + root.string() + " is being written by another process");
  }
  previous_ = currentGeneration(root);
  removeStaleEntries(root, previous_ ? previous_->dir.filename().string() : std::string());
  next_.number = previous_ ? previous_->number + 1 : 1;
  next_.dir = root / (generationName(next_.number) + kScratchSuffix);
  std::filesystem::create_directory(next_.dir);
}

GenerationWriter::~GenerationWriter() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove_all(next_.dir, ignored);
  }
  ::close(lockFd_);
}

void GenerationWriter::commit() {
  syncTree(next_.dir);
  crashPoint("before-rename");
  const std::string name = generationName(next_.number);
  std::filesystem::rename(next_.dir, root_ / name);
  next_.dir = root_ / name;
  syncDirectory(root_);
  crashPoint("before-switch");
  writeFileDurably(root_ / "CURRENT.new", name + "\n");
  crashPoint("before-current-rename");
  std::filesystem::rename(root_ / "CURRENT.new", root_ / kCurrent);
  syncDirectory(root_);
  committed_ = true;
  crashPoint("before-cleanup");
  removeStaleEntries(root_, name);
}

}  // namespace gsparql
