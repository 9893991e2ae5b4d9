#pragma once
// A generation read together with its delta (storage/delta_file.h): the
// delta's triples are resolved to ids against the stored ones, and the parts
// a GraphStore holds are changed in memory to match. Terms the delta adds get
// ids after the stored ones; each predicate it touches has its adjacency
// made again, in both directions, from the stored edges and the delta's;
// the catalog's counts and that predicate's statistics follow, and so does
// the union of the named graphs (storage/named_graphs.h). The
// characteristic sets stay the stored ones (estimates only). Nothing on disk
// changes: a merge writes the whole as a new generation (docs/storage.md).
#include <cstdint>
#include <vector>

#include "storage/adjacency.h"
#include "storage/catalog.h"
#include "storage/delta_file.h"
#include "storage/dictionary.h"
#include "storage/term_column.h"
#include "storage/text_index.h"
#include "storage/value_column.h"

namespace gsparql {

// What a GraphStore opened from the generation's files; values, terms and
// text may be null (databases written before those files existed).
struct GenerationParts {
  Catalog& catalog;
  Dictionary& dictionary;
  AdjacencyFile& out;
  AdjacencyFile& in;
  ValueColumn* values;
  TermColumn* terms;
  TextIndex* text;
};

// Whether the parts hold `triple` (terms; the predicate key names its graph).
bool holdsTriple(const Dictionary& dictionary, const AdjacencyFile& out, const TermTriple& triple);

// Applies the records of `deltaFiles` files, in order (a later record on the
// same triple wins), to the parts of the generation they belong to, or to
// parts a delta changed before (GraphStore::extend). Each file counts as
// one input, its updates' blank-node scope; records not yet written come
// with 0 files.
void applyDelta(const std::vector<DeltaRecord>& records, uint32_t deltaFiles, GenerationParts parts);

}  // namespace gsparql
