#include "storage/generations.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>
#include <thread>

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

// What CURRENT names; nullopt before the first commit (CURRENT is only ever
// replaced by rename, never removed).
std::optional<std::string> currentName(const std::filesystem::path& root) {
  auto current = root / kCurrent;
  if (!std::filesystem::exists(current)) return std::nullopt;
  std::string name = readWholeFile(current);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  return name;
}

[[noreturn]] void throwNotAGeneration(const std::filesystem::path& root, const std::string& name) {
  throw StorageError("corrupt database " + root.string() + ": CURRENT names '" + name +
                     "', which is not a generation folder");
}

Generation generationNamed(const std::filesystem::path& root, const std::string& name) {
  auto number = parseGenerationName(name);
  if (!number) throwNotAGeneration(root, name);
  return Generation{*number, root / name};
}

// Opens a generation folder to lock it; nullopt when it does not exist.
std::optional<FileLock> openFolder(const std::filesystem::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) return FileLock(fd);
  if (errno == ENOENT) return std::nullopt;
  throwSystemError("cannot open", dir);
}

bool sameFile(int fd, const std::filesystem::path& path) {
  struct stat opened {}, named {};
  if (::fstat(fd, &opened) != 0) throwSystemError("cannot stat", path);
  if (::stat(path.c_str(), &named) != 0) {
    if (errno == ENOENT) return false;
    throwSystemError("cannot stat", path);
  }
  return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

// A shared lock on a generation folder; nullopt when a writer removed it
// before we could lock it.
std::optional<FileLock> lockShared(const std::filesystem::path& dir) {
  auto folder = openFolder(dir);
  if (!folder) return std::nullopt;
  while (::flock(folder->fd(), LOCK_SH) != 0) {
    if (errno != EINTR) throwSystemError("cannot lock", dir);
  }
  // A writer that held the folder exclusively until now has just removed it.
  if (!sameFile(folder->fd(), dir)) return std::nullopt;
  return folder;
}

// Removes a committed generation unless a reader holds it: that one stays
// until a later load finds it free.
void removeUnlessPinned(const std::filesystem::path& dir) {
  auto folder = openFolder(dir);
  if (!folder) return;
  if (::flock(folder->fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return;
    throwSystemError("cannot lock", dir);
  }
  std::filesystem::remove_all(dir);
}

// Removes every generation but `keep`, and the scratch of failed or killed loads.
void removeStaleEntries(const std::filesystem::path& root, const std::string& keep) {
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("gen-") || name == keep) continue;
    if (parseGenerationName(name) && entry.is_directory()) {
      removeUnlessPinned(entry.path());
    } else {
      std::filesystem::remove_all(entry.path());
    }
  }
}

[[noreturn]] void throwBusy(const std::filesystem::path& root, std::chrono::milliseconds waited) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g s", std::chrono::duration<double>(waited).count());
  throw StorageError("database " + root.string() + " is being written by another writer (a load or an update); waited " +
                     seconds + " for it to finish");
}

// The LOCK files this process holds (see WriteLock).
std::mutex heldLocksMutex;
std::set<std::filesystem::path> heldLocks;

// Registers this thread as the writer of `root` in this process; returns
// the canonical path of its LOCK file, or nullopt while another thread is.
std::optional<std::filesystem::path> enterRegistry(const std::filesystem::path& root) {
  std::filesystem::create_directories(root);
  auto lockFile = std::filesystem::canonical(root) / "LOCK";
  std::lock_guard guard(heldLocksMutex);
  if (!heldLocks.insert(lockFile).second) return std::nullopt;
  return lockFile;
}

}  // namespace

std::optional<Generation> currentGeneration(const std::filesystem::path& root) {
  auto name = currentName(root);
  if (!name) return std::nullopt;
  Generation generation = generationNamed(root, *name);
  if (!std::filesystem::is_directory(generation.dir)) throwNotAGeneration(root, *name);
  return generation;
}

std::optional<uint64_t> committedGenerationNumber(const std::filesystem::path& root) {
  auto name = currentName(root);
  if (!name) return std::nullopt;
  return generationNamed(root, *name).number;
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<PinnedGeneration> PinnedGeneration::pinCurrent(const std::filesystem::path& root) {
  auto name = currentName(root);
  while (name) {
    Generation generation = generationNamed(root, *name);
    if (auto lock = lockShared(generation.dir)) return PinnedGeneration(std::move(generation), std::move(*lock));
    // Gone before we locked it: fine if a load has switched CURRENT since.
    auto now = currentName(root);
    if (now == name) throwNotAGeneration(root, *name);
    name = std::move(now);
  }
  return std::nullopt;
}

bool PinnedGeneration::stillAtItsPath() const { return sameFile(lock_.fd(), generation_.dir); }

PinnedGeneration PinnedGeneration::pinFolder(Generation generation) {
  auto lock = lockShared(generation.dir);
  if (!lock) throw StorageError(generation.dir.string() + ": no such generation folder");
  return PinnedGeneration(std::move(generation), std::move(*lock));
}

WriteLock::WriteLock(const std::filesystem::path& root, std::chrono::milliseconds patience) {
  using namespace std::chrono_literals;
  const auto start = std::chrono::steady_clock::now();
  std::chrono::milliseconds pause = 1ms;  // doubling to 50 ms: a short writer is followed at once, a long one costs few wake-ups
  while (!tryAcquire(root)) {
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    if (waited >= patience) throwBusy(root, patience);
    std::this_thread::sleep_for(std::min(pause, patience - waited));
    pause = std::min(pause * 2, std::chrono::milliseconds(50ms));
  }
}

bool WriteLock::tryAcquire(const std::filesystem::path& root) {
  auto lockFile = enterRegistry(root);
  if (!lockFile) return false;
  lockFile_ = std::move(*lockFile);
  fd_ = ::open(lockFile_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  struct flock whole {};  // l_start = l_len = 0: the whole file
  whole.l_type = F_WRLCK;
  whole.l_whence = SEEK_SET;
  if (fd_ >= 0 && ::fcntl(fd_, F_SETLK, &whole) == 0) return true;
  const int error = errno;
  const bool opened = fd_ >= 0;
  release();
  if (opened && (error == EACCES || error == EAGAIN)) return false;
  errno = error;
  throwSystemError(opened ? "cannot lock" : "cannot open", lockFile_);
}

WriteLock::~WriteLock() { release(); }

void WriteLock::release() {
  // Closed before it leaves the registry: a thread that enters the registry
  // next must not find our lock still held.
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  std::lock_guard guard(heldLocksMutex);
  heldLocks.erase(lockFile_);
}

GenerationWriter::GenerationWriter(const std::filesystem::path& root, std::chrono::milliseconds patience)
    : root_(root), lock_(root, patience) {
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
