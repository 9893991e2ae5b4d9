#pragma once
// Works out what a SPARQL 1.1 Update request does to one generation of the
// store. The operations apply in order; each DELETE and INSERT template is
// instantiated with the solutions of its pattern (Update section 3.1.3),
// found once by the query engine, and the *DATA forms are templates with one
// empty solution. The result is a GraphChanges that the loader writes as the
// next generation (loaders/loader.h), so a request is applied whole or not
// at all.
//
// An operation that must read what earlier operations of the request changed
// (a pattern after a change, a deletion after a LOAD) has those changes
// written first as an intermediate generation (`materialize`), which it and
// the operations after it read.
//
// Named graphs (storage/named_graphs.h) exist while they have triples: CREATE
// of a new graph changes nothing beyond this request, CLEAR and DROP are
// the same, and ADD, MOVE and COPY run as the INSERT and DROP operations
// that Update 3.2.3-3.2.5 define them by.
#include <functional>
#include <memory>

#include "engine/bgp/executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/query/query_runner.h"
#include "parser/update.h"
#include "storage/graph_changes.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

struct UpdateContext {
  Executor& executor;
  QueryRequest query;  // how the operations' patterns run
  std::function<std::unique_ptr<JoinOrderer>(const GraphStore&)> makeOrderer;
  // Writes `changes` to the store last returned (at first the one given to
  // planUpdate) and returns the result, valid until planUpdate returns.
  std::function<const GraphStore&(const GraphChanges& changes)> materialize;
  bool allowLoad = true;  // false: LOAD fails (a server's clients may not read its files)
  // Reads a file as LOAD would, throwing at its first error: LOAD SILENT
  // skips a file that fails it.
  std::function<void(const std::string& path)> checkLoadable;
  // Requests written together as one delta file (gsparql/update_batch.h)
  // share its blank-node scope (loader.h): the i-th of them from 0 labels
  // its blank nodes apart from the others' ("_:f5_u2" for the first,
  // "_:f5_u1_2" for the second).
  uint32_t requestInScope = 0;
};

// The changes to the last store `materialize` returned (or to `store`).
// Throws QueryError (with the operation's position) for an operation it
// cannot apply, and whatever the patterns' queries throw.
GraphChanges planUpdate(const sparql::UpdateRequest& request, const GraphStore& store, const UpdateContext& context);

}  // namespace gsparql::engine
