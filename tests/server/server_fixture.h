#pragma once
// The WatDiv SF1 database, loaded once per test binary, for the servers of
// the tests (test_server.h).
#include <httplib.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gsparql/database.h"
#include "server/sparql_server.h"
#include "test_server.h"

namespace gsparql::test {

const Database& sf1();
const std::filesystem::path& sf1Dir();

// A WatDiv SF1 query of tests/data by name ("C1_01").
std::string watdivQuery(const std::string& name);
// Some WatDiv SF1 queries of each template family with non-empty results.
const std::vector<std::string>& watdivNames();

// Data lines of a TSV result (without its header), sorted.
std::vector<std::string> sortedTsvRows(const std::string& tsv);
// The same rows from the API.
std::vector<std::string> sortedRowsOf(const QueryResult& result);

// A TCP connection to a server on this machine (-1 if it fails): for
// requests no HTTP client library sends, and for clients that leave.
int connectTo(int port);
// Sends `request` on a connection of its own and returns what comes back
// until the server closes the connection, or `patience` has passed.
std::string rawExchange(int port, const std::string& request,
                        std::chrono::milliseconds patience = std::chrono::seconds(10));

// A server on the shared WatDiv SF1 database (which no test changes) or on `dir`.
class Sf1Server : public TestServer {
 public:
  explicit Sf1Server(server::ServerOptions options = {}, const std::filesystem::path& dir = sf1Dir())
      : TestServer(std::move(options), dir) {}
};

}  // namespace gsparql::test
