#pragma once
// Rows of a property path pattern, for ordering joins. With a constant end
// the path is searched from that end once, here: such searches reach few
// vertices (subOrganizationOf+ of one university, subClassOf* of one class)
// and cost what the scan will cost again, while a guess from the vertex count
// can be off by millions and make a join build its hash table on the wrong
// side. With two variable ends: the vertex count, as before.
#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

double estimatePathRows(const GraphStore& store, const sparql::Term& subject, const sparql::Path& path,
                        const sparql::Term& object);

}  // namespace gsparql::engine
