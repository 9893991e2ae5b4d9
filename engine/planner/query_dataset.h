#pragma once
// The RDF dataset a query matches (section 13): its default graph and its
// named graphs, as graphs of the store (storage/named_graphs.h). Without
// FROM or FROM NAMED it is the store's: its default graph and every named
// graph. FROM <g> makes graph <g> the default graph, FROM <a> FROM <b> makes
// the merge of <a> and <b> the default graph, FROM NAMED <g> lists the named
// graphs; a graph the store lacks is empty.
#include <cstdint>
#include <string>
#include <vector>

#include "storage/named_graphs.h"

namespace gsparql::engine {

struct QueryDataset {
  GraphMerge defaultGraph{NamedGraphs::kDefaultGraph};
  std::vector<uint32_t> namedGraphs;  // those the store holds, in the order named
};

// `unionDefaultGraph`: without FROM or FROM NAMED, the default graph is the
// union of the named graphs (as Fuseki's unionDefaultGraph).
QueryDataset resolveDataset(const std::vector<std::string>& fromGraphs,
                            const std::vector<std::string>& fromNamedGraphs, const NamedGraphs& graphs,
                            bool unionDefaultGraph = false);

}  // namespace gsparql::engine
