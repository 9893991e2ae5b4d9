#pragma once
// The WatDiv SF1 database, loaded once per test binary, and a SparqlServer
// on it in this process, on a free port, with an HTTP client for it.
#include <httplib.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gsparql/database.h"
#include "server/sparql_server.h"

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

class TestServer {
 public:
  // On `dir` (by default the shared WatDiv SF1 database, which no test changes).
  explicit TestServer(server::ServerOptions options = {}, const std::filesystem::path& dir = sf1Dir());
  ~TestServer();

  int port() const { return port_; }
  httplib::Client client() const;

 private:
  std::unique_ptr<server::SparqlServer> server_;
  int port_ = 0;
  std::thread thread_;
};

// The form body of url-encoded name=value pairs.
std::string formBody(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace gsparql::test
