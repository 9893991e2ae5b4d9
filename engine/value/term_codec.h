#pragma once
// Turns terms into value ids and back for one query. Ids of data terms come
// from the dictionary; terms the query makes (constants absent from the data,
// results of expressions, fresh blank nodes) are numbered in a local
// vocabulary that lives as long as the query's result. Vertex terms are read
// from the store's term column (a memory map) where it has one; otherwise, and
// for predicates, decoded terms are cached, so a value is read from the
// dictionary at most once per query.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/value/value_id.h"
#include "rdf/typed_value.h"

#include "storage/term_column.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

class TermCodec {
 public:
  explicit TermCodec(const GraphStore& store);

  // The one id of a term (rdf/term.h form); a term absent from the data
  // joins the local vocabulary.
  ValueId idOf(std::string_view term);
  // The id idOf gives a term the query has seen or the data holds; nullopt
  // for one idOf would number in the local vocabulary. It only reads, so
  // threads may call it at once while none calls idOf.
  std::optional<ValueId> knownId(std::string_view term) const;
  // idOf for a term knownId found absent from the data: numbered in the
  // local vocabulary (or given the id it got since) without looking it up in
  // the dictionary again.
  ValueId idOfAbsent(std::string_view term);
  ValueId fromVertex(uint32_t vertex) const { return makeValueId(ValueSpace::Vertex, vertex); }
  // A predicate that is also a subject or object gets its vertex id.
  ValueId fromPredicate(uint32_t predicate);
  // A blank node that occurs nowhere in the data or earlier in the query.
  ValueId freshBlankNode();
  // True for the label of a blank node freshBlankNode() made (`_:g<N>`):
  // stored labels carry the `f<N>_` prefix of the load or update that made them.
  static bool isQueryBlankNode(std::string_view term);

  // The term of a bound id; valid as long as this codec.
  std::string_view term(ValueId id);
  // The term of a data vertex; valid as long as this codec.
  std::string_view vertexTerm(uint32_t vertex) {
    if (termColumn_ != nullptr) return termColumn_->term(vertex);
    if (!denseVertices_.empty() && denseVertices_[vertex] != kNotDecoded) return views_[denseVertices_[vertex]];
    return term(fromVertex(vertex));
  }
  // Decodes the ids not seen yet (any ids, and vertex ids) in one dictionary
  // batch per id space: call before term() on many ids.
  void prefetch(std::span<const ValueId> ids, std::span<const uint32_t> vertices = {});
  // Starts loading what vertexTerm(vertex) reads, where that is memory.
  void prefetchVertex(uint32_t vertex) const {
    if (termColumn_ != nullptr) termColumn_->prefetch(vertex);
  }
  // Starts loading the text of a term, up to four cache lines (long literals are read whole by the writers).
  static void prefetchText(std::string_view term) {
    const size_t lines = std::min<size_t>(4, (term.size() + 63) / 64);
    for (size_t line = 0; line < lines; ++line) __builtin_prefetch(term.data() + line * 64);
  }
  // The term of a data vertex where it is read in place (a term column),
  // without touching the codec's state; nullopt for any other id.
  std::optional<std::string_view> termInPlace(ValueId id) const {
    if (termColumn_ == nullptr || spaceOf(id) != ValueSpace::Vertex) return std::nullopt;
    return termColumn_->term(indexOf(id));
  }
  // True when vertex terms are read in place (a term column), so that
  // prefetching them is pointless.
  bool readsVerticesInPlace() const { return termColumn_ != nullptr; }
  // About `cells` ids will be decoded: lets the codec choose its cache.
  void expectDecoding(size_t cells);

  // The value a data term had at load time (storage/value_column.h), for
  // comparisons without decoding; nullptr for terms the query made, for
  // predicates, and for databases without a value column.
  const rdf::TypedValue* typedValue(ValueId id) const;

  // The data's ids of a value, for operators that walk the adjacency.
  std::optional<uint32_t> vertexOf(ValueId id) const;
  // The predicate id of a value in one graph of the store (storage/named_graphs.h).
  std::optional<uint32_t> predicateOf(ValueId id, uint32_t graph);

  const GraphStore& store() const { return store_; }

 private:
  const std::vector<uint32_t>& predicateVertices();
  // The id of a term of the data (a vertex, or a predicate that is none).
  std::optional<ValueId> dataId(std::string_view term) const;
  // The id idOf gives, the dictionary asked only where `mayBeData`.
  ValueId numbered(std::string_view term, bool mayBeData);
  static constexpr uint32_t kNotDecoded = 0xFFFFFFFFu;

  const std::string_view* cached(ValueId id) const;
  // Reads the terms of these ids of one space from the dictionary, in one batch.
  void decode(ValueSpace space, std::vector<uint32_t> missing);
  void remember(ValueId id, std::string term);
  void indexVerticesDensely();

  const GraphStore& store_;
  const TermColumn* termColumn_;  // null for databases without one
  std::unordered_map<std::string, ValueId> byKey_;  // terms looked up so far, by rdf::termKey
  std::deque<std::string> local_;  // a deque: views stay valid as terms are added
  // Decoded terms by id: in a hash map while few are decoded; vertices in a
  // dense array (one load a cell) once a batch asks for many.
  std::unordered_map<ValueId, uint32_t> decodedIndex_;
  std::vector<uint32_t> denseVertices_;
  std::deque<std::string> decoded_;  // a deque: views stay valid as terms are added
  std::vector<std::string_view> views_;  // of decoded_, by slot: one load a cell
  std::optional<std::vector<uint32_t>> predicateVertices_;  // predicate id -> vertex id or kNoId
  uint64_t blankCounter_ = 0;
};

}  // namespace gsparql::engine
