#pragma once
// What a SPARQL Update request does to the stored graph, as terms (rdf/term.h
// form): the engine works it out against one generation, the loader writes
// that generation changed as the next one (loaders/loader.h).
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "storage/named_graphs.h"

namespace gsparql {

// Subject, predicate, object; the predicate as storage/named_graphs.h keys
// it, so "<p> <g>" for a triple of named graph <g>.
using TermTriple = std::array<std::string, 3>;

class GraphChanges {
 public:
  // A file to add, into the default graph (graph empty) or a named graph
  // "<iri>".
  struct LoadedFile {
    std::string path, graph;
  };

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
  // Every triple of the graph goes ("" the default graph, "<iri>" a named
  // one, nullopt every named graph): those of the previous generation and
  // those inserted or loaded so far.
  void clear(const std::optional<std::string>& graph) {
    if (graph) {
      cleared_.insert(*graph);
    } else {
      clearNamed_ = true;
    }
    auto inCleared = [&](const std::string& g) { return graph ? g == *graph : !g.empty(); };
    std::erase_if(inserted_, [&](const TermTriple& t) { return inCleared(graphOf(t)); });
    std::erase_if(deleted_, [&](const TermTriple& t) { return inCleared(graphOf(t)); });
    std::erase_if(loadedFiles_, [&](const LoadedFile& f) { return inCleared(f.graph); });
  }
  // LOAD: the file's triples are added when the generation is written.
  void load(std::string path, std::string graph) { loadedFiles_.push_back({std::move(path), std::move(graph)}); }

  // Whether the previous generation's triples of `graph` all go.
  bool clearsExisting(const std::string& graph) const {
    return cleared_.contains(graph) || (clearNamed_ && !graph.empty());
  }
  const std::set<TermTriple>& deleted() const { return deleted_; }    // of the previous generation's
  const std::set<TermTriple>& inserted() const { return inserted_; }  // kept over deleted()
  const std::vector<LoadedFile>& loadedFiles() const { return loadedFiles_; }
  // Whether the request inserts or loads into `graph`.
  bool adds(const std::string& graph) const {
    return std::any_of(inserted_.begin(), inserted_.end(), [&](const TermTriple& t) { return graphOf(t) == graph; }) ||
           std::any_of(loadedFiles_.begin(), loadedFiles_.end(), [&](const LoadedFile& f) { return f.graph == graph; });
  }
  bool addsToNamedGraph() const {
    return std::any_of(inserted_.begin(), inserted_.end(), [](const TermTriple& t) { return !graphOf(t).empty(); }) ||
           std::any_of(loadedFiles_.begin(), loadedFiles_.end(), [](const LoadedFile& f) { return !f.graph.empty(); });
  }
  // Whether the request only inserts and deletes triples: no CLEAR, DROP or LOAD.
  bool onlyTriples() const { return cleared_.empty() && !clearNamed_ && loadedFiles_.empty(); }
  bool empty() const {
    return cleared_.empty() && !clearNamed_ && deleted_.empty() && inserted_.empty() && loadedFiles_.empty();
  }
  // About the memory the triples hold, counted as they come (never less
  // than what is held: triples dropped since are still counted).
  uint64_t bytes() const { return bytes_; }

  static std::string graphOf(const TermTriple& t) { return std::string(splitGraphPredicateKey(t[1]).graph); }

 private:
  std::set<std::string> cleared_;
  bool clearNamed_ = false;
  std::set<TermTriple> deleted_;
  std::set<TermTriple> inserted_;
  std::vector<LoadedFile> loadedFiles_;
  uint64_t bytes_ = 0;

  // The text of the terms and the set's node and strings.
  static uint64_t bytesOf(const TermTriple& t) { return t[0].size() + t[1].size() + t[2].size() + 160; }
};

}  // namespace gsparql
