#pragma once
// What a SPARQL Update request does to the stored graph, as terms (rdf/term.h
// form): the engine works it out against one generation, the loader writes
// that generation changed as the next one (loaders/loader.h).
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace gsparql {

using TermTriple = std::array<std::string, 3>;  // subject, predicate, object

class GraphChanges {
 public:
  // In the order of the request's operations: a later change overrides an
  // earlier one on the same triple.
  void insert(TermTriple triple) {
    deleted_.erase(triple);
    const uint64_t size = bytesOf(triple);
    if (inserted_.insert(std::move(triple)).second) bytes_ += size;
  }
  // `stored`: the previous generation holds it (else only an insertion
  // of this request is undone).
  void remove(TermTriple triple, bool stored) {
    inserted_.erase(triple);
    const uint64_t size = bytesOf(triple);
    if (stored && deleted_.insert(std::move(triple)).second) bytes_ += size;
  }
  // Every triple goes: those of the previous generation and those inserted
  // or loaded so far.
  void clear() {
    clearExisting_ = true;
    inserted_.clear();
    deleted_.clear();
    loadedFiles_.clear();
  }
  // LOAD: the file's triples are added when the generation is written.
  void load(std::string path) { loadedFiles_.push_back(std::move(path)); }

  bool clearsExisting() const { return clearExisting_; }
  const std::set<TermTriple>& deleted() const { return deleted_; }    // of the previous generation's
  const std::set<TermTriple>& inserted() const { return inserted_; }  // kept over deleted()
  const std::vector<std::string>& loadedFiles() const { return loadedFiles_; }
  bool empty() const { return !clearExisting_ && deleted_.empty() && inserted_.empty() && loadedFiles_.empty(); }
  // About the memory the triples hold, counted as they come (never less
  // than what is held: triples dropped since are still counted).
  uint64_t bytes() const { return bytes_; }

 private:
  bool clearExisting_ = false;
  std::set<TermTriple> deleted_;
  std::set<TermTriple> inserted_;
  std::vector<std::string> loadedFiles_;
  uint64_t bytes_ = 0;

  // The text of the terms and the set's node and strings.
  static uint64_t bytesOf(const TermTriple& t) { return t[0].size() + t[1].size() + t[2].size() + 160; }
};

}  // namespace gsparql
