#pragma once
// A SparqlServer in this process, on a free port, with an HTTP client for
// it: for the server's tests and the W3C Protocol runner.
#include <httplib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/sparql_server.h"

namespace gsparql::test {

class TestServer {
 public:
  // On `dir`.
  TestServer(server::ServerOptions options, const std::filesystem::path& dir);
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
