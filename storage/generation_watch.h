#pragma once
// Tells, in one system call, whether a database folder may have changed:
// an inotify watch on the folder and its generation folders, where CURRENT
// is replaced and delta files appear. Reading CURRENT and looking for the
// next delta file (GraphStore::isLatest) costs several system calls and
// was a tenth of a served query's time; with the watch it is needed only
// after something in the folder changed.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>

namespace gsparql {

class GenerationWatch {
 public:
  // Watches from now on. Without inotify (or past the process's limit of
  // watches) every call to changes() counts a change.
  explicit GenerationWatch(const std::filesystem::path& root);
  // The watch of `root` that every snapshot of it in this process shares,
  // made while none is held. One per snapshot would cost an inotify
  // instance per update, and closing one waits for the kernel's grace
  // period (milliseconds): it held a server's updates back.
  static std::shared_ptr<GenerationWatch> shared(const std::filesystem::path& root);
  ~GenerationWatch();
  GenerationWatch(const GenerationWatch&) = delete;
  GenerationWatch& operator=(const GenerationWatch&) = delete;

  // How many times the folder has been seen to change: unchanged since an
  // earlier call means nothing was created, renamed, written or removed in
  // it in between. Events are read when this is called (a non-blocking
  // read), so a change made before the call returns is always counted.
  uint64_t changes();

 private:
  bool watchFolder(const std::filesystem::path& dir);
  void readEvents();

  std::filesystem::path root_;
  std::mutex mutex_;
  int fd_ = -1;
  int rootWatch_ = -1;
  bool blind_ = false;  // no watch, or the root itself moved: count every call
  uint64_t changes_ = 0;
};

}  // namespace gsparql
