#pragma once
// The SPARQL 1.1 Graph Store HTTP Protocol
// (https://www.w3.org/TR/sparql11-http-rdf-update/): GET, HEAD, PUT, POST
// and DELETE of one graph of the store. Plain structs in and out, no HTTP
// library's types: the server (sparql_server.cpp) fills the request, lends
// its database and its update commit, and sends the answer.
//
// A named graph exists while it holds a triple: the store keeps no empty
// graphs (storage/named_graphs.h), so a PUT of an empty document leaves
// none, and GET, HEAD and DELETE of it are 404. The default graph always
// exists. Writes are updates of the server's own making, each one update
// (all or nothing): PUT is `DROP SILENT GRAPH <g> ; LOAD <file> INTO GRAPH
// <g>`, POST the LOAD alone, DELETE the DROP, the file holding the body's
// triples (graph_store_body.h). Whether a graph existed (201 or 204, 404 for
// DELETE) is read on the newest snapshot just before the update: of two
// clients writing a new graph at once, both may be told 201.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gsparql/database.h"
#include "server/protocol_request.h"

namespace gsparql::server {

struct GraphTarget {
  enum class Kind { Default, Named, New };  // New: a POST asking the store to name a new graph
  Kind kind = Kind::Default;
  std::string iri;  // Named: the graph's IRI
};

struct GraphStoreRequest {
  std::string method;  // GET, HEAD, PUT, POST or DELETE
  GraphTarget target;
  std::string contentType;  // the body's media type, without parameters
  std::string accept;       // the Accept header; empty: anything
  std::string body;
  // The request's URL without its query: the base IRI of a body for the
  // default graph (a named graph's is its name), and the prefix of the names
  // of new graphs.
  std::string requestIri;
  std::string boundary;  // of a multipart/form-data body, each part a document of the graph
};

struct GraphStoreResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // such as Location
  std::string contentType;                                   // empty: no body
  std::string body;
};

// What the Graph Store needs of the server.
struct GraphStoreAccess {
  std::function<std::shared_ptr<const Database>()> snapshot;  // the newest generation
  std::function<void()> checkWriteAllowed;  // throws HttpError (401, 403) where an update would be refused
  // Applies an update of the Graph Store's making, all or nothing; its LOAD
  // reads the Graph Store's own files.
  std::function<void(const std::string& update)> commit;
  QueryOptions query;  // how reads run: timeout, memory budget, rows
};

// Whether a request to a query endpoint (/sparql, /query, /update) is one
// for the Graph Store: it names a graph (graph= or default) and carries no
// query or update.
bool namesGraphOnly(const std::multimap<std::string, std::string>& params);

// The Graph Store request of an HTTP request to `path` on `host`: its graph
// named by ?graph=IRI or ?default (indirect identification), by the URL
// itself under /data/ (direct: http://HOST/data/...), or, for a POST to
// /data with neither, a new graph. Throws HttpError 400 for a request that
// names no graph, or two, or a graph= that is no absolute IRI.
GraphStoreRequest graphStoreRequestOf(HttpInput input, const std::string& path, const std::string& host,
                                      std::string accept);

// Throws HttpError: 400 for a body that does not parse, 404 for a graph
// that does not exist, 405 for another method, 406 when Accept takes
// neither Turtle nor N-Triples, 415 for a body of another format, and what
// `access` throws.
GraphStoreResponse answerGraphStore(const GraphStoreRequest& request, const GraphStoreAccess& access);

}  // namespace gsparql::server
