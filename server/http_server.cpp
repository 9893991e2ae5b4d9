#include "server/http_server.h"

#include "server/http_connection.h"

namespace gsparql::server {

bool HttpServer::process_and_close_socket(socket_t sock) {
  using std::chrono::microseconds;
  using std::chrono::seconds;
  HttpConnection connection(sock, seconds(read_timeout_sec_) + microseconds(read_timeout_usec_),
                            seconds(write_timeout_sec_) + microseconds(write_timeout_usec_));
  const auto serving = [this] { return svr_sock_ != INVALID_SOCKET; };
  bool ok = false;
  for (size_t left = keep_alive_max_count_; left > 0; --left) {
    if (!connection.awaitRequest(seconds(keep_alive_timeout_sec_), serving)) break;
    connection.beginRequest();
    bool closed = false;  // the request said Connection: close
    ok = process_request(connection, /*close_connection=*/left == 1, closed, nullptr);
    if (!ok || closed || connection.closing()) break;
  }
  return ok;
}

}  // namespace gsparql::server
