#pragma once
// A database directory holds numbered generations; the file CURRENT names the
// one readers use. A writer builds the next generation in a scratch folder and
// switches CURRENT with an atomic rename, so a crash at any moment leaves the
// previous generation in place and readable.
//   DIR/CURRENT          "gen-000004\n"
//   DIR/LOCK             locked by the one writer
//   DIR/gen-000004/      dictionary/, out.pcsr, in.pcsr, catalog
//   DIR/gen-000005.incomplete/   a writer's scratch folder (removed on failure)
// Readers pin the generation they read (a shared flock() on its folder); a
// writer removes an old generation only when it can lock it exclusively, so
// one still read stays until a later load finds it free.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

namespace gsparql {

struct Generation {
  uint64_t number = 0;
  std::filesystem::path dir;
};

// The committed generation, if the directory has one. Only for a writer
// (which holds the directory's write lock): a reader must pin its generation.
std::optional<Generation> currentGeneration(const std::filesystem::path& root);

// The number of the generation CURRENT names now, without pinning it: enough
// to tell whether a reader's generation is still the newest.
std::optional<uint64_t> committedGenerationNumber(const std::filesystem::path& root);

// An open file descriptor holding a flock(); closing it releases the lock.
class FileLock {
 public:
  explicit FileLock(int fd) : fd_(fd) {}
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  int fd() const { return fd_; }

 private:
  int fd_;
};

// A committed generation that no load removes while this object lives, even
// from another process.
class PinnedGeneration {
 public:
  // Pins the generation CURRENT names; nullopt when there is none yet. When a
  // load removes that generation between the reading of CURRENT and the
  // locking, CURRENT is read again.
  static std::optional<PinnedGeneration> pinCurrent(const std::filesystem::path& root);
  // Pins a generation's folder that is not (or not yet) current: an update's
  // intermediate state. Throws StorageError if it does not exist.
  static PinnedGeneration pinFolder(Generation generation);

  const Generation& generation() const { return generation_; }
  // Whether the folder pinned is still the one at its path: not where the
  // database was deleted and made again at the same place (its generations
  // numbered from 1 again).
  bool stillAtItsPath() const;

 private:
  PinnedGeneration(Generation generation, FileLock lock)
      : generation_(std::move(generation)), lock_(std::move(lock)) {}

  Generation generation_;
  FileLock lock_;
};

// The one-writer lock of a database directory: an fcntl() lock on DIR/LOCK.
// Unlike a flock(), a child that this process forks does not share it, so a
// process spawned while a load runs cannot make the next load look like a
// second writer. fcntl() locks do not exclude threads of one process, and
// closing any descriptor of the file drops them: a registry of the
// directories this process writes keeps its threads apart and keeps a
// refused thread from opening the file at all.
//
// A second writer waits for the first (polling: fcntl's blocking wait has
// no timeout, and threads of this process wait on the registry), up to its
// patience, as a second `gsparql update` should queue behind the first
// rather than fail.
class WriteLock {
 public:
  // Waits up to `patience` while another writer, in this process or
  // another, holds the directory, then fails with StorageError saying how
  // long it waited; creates the directory if needed.
  WriteLock(const std::filesystem::path& root, std::chrono::milliseconds patience);
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;
  ~WriteLock();

 private:
  // One attempt: true with the lock held, false while another writer holds it.
  bool tryAcquire(const std::filesystem::path& root);
  void release();

  std::filesystem::path lockFile_;  // canonical: the registry's key
  int fd_ = -1;
};

// How long a writer waits for another by default: a load or an update
// without a timeout of its own.
inline constexpr std::chrono::seconds kWriterPatience{60};

class GenerationWriter {
 public:
  // Takes the directory's write lock (waiting up to `patience` for another
  // writer that has it), creates the directory if needed and removes scratch
  // left by crashes and old generations no reader holds any more.
  explicit GenerationWriter(const std::filesystem::path& root,
                            std::chrono::milliseconds patience = kWriterPatience);
  GenerationWriter(const GenerationWriter&) = delete;
  GenerationWriter& operator=(const GenerationWriter&) = delete;
  // Without commit(), the scratch folder is removed and nothing changes.
  ~GenerationWriter();

  const std::optional<Generation>& previous() const { return previous_; }
  const Generation& next() const { return next_; }  // next_.dir is the scratch folder until commit
  // Makes the new generation durable and current, then deletes older ones
  // that no reader holds.
  void commit();

 private:
  std::filesystem::path root_;
  WriteLock lock_;
  std::optional<Generation> previous_;
  Generation next_;
  bool committed_ = false;
};

}  // namespace gsparql
