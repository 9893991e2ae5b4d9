#include "storage/generation_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <string>

namespace gsparql {
namespace {

// What changes a database's files: CURRENT and delta files are renamed into
// place, generations created and removed. Opening and reading (readers'
// pins) are not changes.
constexpr uint32_t kChanges = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE | IN_ONLYDIR;
constexpr uint32_t kRootGone = IN_DELETE_SELF | IN_MOVE_SELF;

}  // namespace

GenerationWatch::GenerationWatch(const std::filesystem::path& root)
    : root_(root), fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  if (fd_ < 0) {
    blind_ = true;
    return;
  }
  rootWatch_ = inotify_add_watch(fd_, root_.c_str(), kChanges | kRootGone);
  blind_ = rootWatch_ < 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root_, error)) {
    if (!blind_ && entry.is_directory(error)) blind_ = !watchFolder(entry.path());
  }
  if (error) blind_ = true;
}

std::shared_ptr<GenerationWatch> GenerationWatch::shared(const std::filesystem::path& root) {
  static std::mutex& mutex = *new std::mutex;  // never destroyed: snapshots may close while the process exits
  static auto& watches = *new std::map<std::string, std::weak_ptr<GenerationWatch>>;
  std::error_code error;
  std::filesystem::path key = std::filesystem::weakly_canonical(root, error);
  if (error) key = std::filesystem::absolute(root);
  std::lock_guard lock(mutex);
  std::erase_if(watches, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<GenerationWatch>& held = watches[key.string()];
  if (auto watch = held.lock()) return watch;
  auto watch = std::make_shared<GenerationWatch>(root);
  held = watch;
  return watch;
}

GenerationWatch::~GenerationWatch() {
  if (fd_ >= 0) ::close(fd_);
}

bool GenerationWatch::watchFolder(const std::filesystem::path& dir) {
  // A folder removed before it is watched is no loss: its removal is a change too.
  return inotify_add_watch(fd_, dir.c_str(), kChanges) >= 0 || errno == ENOENT || errno == ENOTDIR;
}

uint64_t GenerationWatch::changes() {
  std::lock_guard lock(mutex_);
  if (blind_) return ++changes_;
  readEvents();
  return changes_;
}

void GenerationWatch::readEvents() {
  alignas(inotify_event) char buffer[4096];
  for (;;) {
    const ssize_t bytes = ::read(fd_, buffer, sizeof buffer);
    if (bytes < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN) blind_ = true;
      if (blind_) ++changes_;
      return;
    }
    ++changes_;
    for (ssize_t at = 0; at < bytes;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      if (event->wd != rootWatch_) continue;
      if (event->mask & (kRootGone | IN_IGNORED)) blind_ = true;
      const bool newFolder = (event->mask & IN_ISDIR) && (event->mask & (IN_CREATE | IN_MOVED_TO));
      if (newFolder && event->len > 0 && !watchFolder(root_ / event->name)) blind_ = true;
    }
  }
}

}  // namespace gsparql
