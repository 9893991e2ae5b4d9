#pragma once
// What a SPARQL 1.1 Update request did (Database::update).
#include <cstdint>

#include "gsparql/query.h"

namespace gsparql {

struct UpdateOptions {
  // For the operations' WHERE patterns: timeout, memory budget, cancel.
  QueryOptions query;
  // LOAD <file:///...> reads files of this machine; a server refuses it to
  // its clients.
  bool allowLoad = true;
};

struct UpdateSummary {
  uint64_t operations = 0;
  // False when the request changed nothing (DELETE of absent triples, a
  // pattern without solutions): no new generation was written.
  bool changed = false;
  uint64_t generation = 0;     // current after the update
  uint64_t triplesBefore = 0;  // in the database
  uint64_t triplesAfter = 0;
  double seconds = 0;
};

}  // namespace gsparql
