#pragma once
// Works out what a SPARQL 1.1 Update request does to one generation of the
// store. The operations apply in order; each DELETE and INSERT template is
// instantiated with the solutions of its pattern (Update section 3.1.3),
// found once by the query engine, and the *DATA forms are templates with one
// empty solution. The result is a GraphChanges that the loader writes as the
// next generation (loaders/loader.h), so a request is applied whole or not
// at all.
//
// The store holds the default graph only (named graphs are merged into it on
// load): an operation on a named graph fails, or with SILENT does nothing.
// An operation with a pattern reads the generation as it was before the
// request, so it must come before every operation that changes something.
#include "engine/executor.h"
#include "engine/join_orderer.h"
#include "parser/update.h"
#include "storage/graph_changes.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

// Throws QueryError (with the operation's position) for an operation it
// cannot apply, and whatever the patterns' queries throw.
// `allowLoad` false: LOAD fails (a server's clients may not read its files).
GraphChanges planUpdate(const sparql::UpdateRequest& request, const GraphStore& store, Executor& executor,
                        const JoinOrderer& orderer, const ExecutionOptions& options, bool allowLoad);

}  // namespace gsparql::engine
