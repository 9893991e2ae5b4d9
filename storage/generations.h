#pragma once
// A database directory holds numbered generations; the file CURRENT names the
// one readers use. A writer builds the next generation in a scratch folder and
// switches CURRENT with an atomic rename, so a crash at any moment leaves the
// previous generation in place and readable.
//   DIR/CURRENT          "gen-000004\n"
//   DIR/LOCK             held by the one writer
//   DIR/gen-000004/      dictionary/, out.pcsr, in.pcsr, catalog
//   DIR/gen-000005.incomplete/   a writer's scratch folder (removed on failure)
#include <cstdint>
#include <filesystem>
#include <optional>

namespace gsparql {

struct Generation {
  uint64_t number = 0;
  std::filesystem::path dir;
};

// The committed generation, if the directory has one.
std::optional<Generation> currentGeneration(const std::filesystem::path& root);

class GenerationWriter {
 public:
  // Takes the directory's write lock (failing at once if another writer has
  // it), creates the directory if needed and removes scratch left by crashes.
  explicit GenerationWriter(const std::filesystem::path& root);
  GenerationWriter(const GenerationWriter&) = delete;
  GenerationWriter& operator=(const GenerationWriter&) = delete;
  // Without commit(), the scratch folder is removed and nothing changes.
  ~GenerationWriter();

  const std::optional<Generation>& previous() const { return previous_; }
  const Generation& next() const { return next_; }  // next_.dir is the scratch folder until commit
  // Makes the new generation durable and current, then deletes older ones.
  void commit();

 private:
  std::filesystem::path root_;
  int lockFd_ = -1;
  std::optional<Generation> previous_;
  Generation next_;
  bool committed_ = false;
};

}  // namespace gsparql
