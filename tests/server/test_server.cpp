#include "test_server.h"

#include <chrono>

namespace gsparql::test {

TestServer::TestServer(server::ServerOptions options, const std::filesystem::path& dir) {
  options.port = 0;
  server_ = std::make_unique<server::SparqlServer>(dir, std::move(options));
  port_ = server_->bind();
  thread_ = std::thread([this] { server_->serve(); });
  // Answered once the server's loop runs; stop() before that would be missed.
  while (!client().Options("/")) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TestServer::~TestServer() {
  server_->stop();
  thread_.join();
}

httplib::Client TestServer::client() const {
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(120);
  return client;
}

std::string formBody(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string body;
  for (const auto& [name, value] : fields) {
    if (!body.empty()) body += '&';
    body += httplib::detail::encode_query_param(name) + '=' + httplib::detail::encode_query_param(value);
  }
  return body;
}

}  // namespace gsparql::test
