#pragma once
// What a SPARQL 1.1 Update request did (Database::update).
#include <cstdint>
#include <string>

#include "gsparql/query.h"

#include "gsparql/export.h"

namespace gsparql {

struct UpdateOptions {
  // For the operations' WHERE patterns: timeout, memory budget, cancel.
  // The timeout also bounds the wait for another writer to finish (60 s
  // when none is set).
  QueryOptions query;
  // LOAD <file:///...> reads files of this machine; a server refuses it to
  // its clients.
  bool allowLoad = true;
  // A small update is written as a delta file beside the generation
  // (docs/storage.md, "Delta"); once the delta is large, true merges it
  // into a new generation before returning, false leaves that to the
  // caller (Database::mergeDelta; the server does it in the background).
  bool mergeWhenDue = true;
};

struct GSPARQL_API UpdateSummary {
  uint64_t operations = 0;
  // False when the request changed nothing (DELETE of absent triples, a
  // pattern without solutions): no new generation was written.
  bool changed = false;
  uint64_t generation = 0;     // current after the update
  // The generation's delta files that readers see after it (docs/storage.md,
  // "Delta"), the last one this update's when it was written as a delta.
  uint32_t deltaFile = 0;
  bool merged = false;         // the delta was merged into a new generation (mergeWhenDue)
  bool mergeDue = false;       // the delta is due a merge that mergeWhenDue left to the caller
  uint64_t triplesBefore = 0;  // in the database
  uint64_t triplesAfter = 0;
  double seconds = 0;
  // What readers see after it: "generation 4", or "generation 4 + delta file 2".
  std::string snapshot() const;
};

}  // namespace gsparql
