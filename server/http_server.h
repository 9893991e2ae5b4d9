#pragma once
// cpp-httplib's server with a connection loop of our own around its request
// parser (process_request): the loop serves each connection through an
// HttpConnection (http_connection.h), which gives the handlers the socket's
// state that cpp-httplib 0.11.4 keeps to itself. The loop is cpp-httplib's
// (keep-alive up to set_keep_alive_max_count requests, each awaited up to
// set_keep_alive_timeout), plus: it ends after a response that asked for
// the close, and it notices stop() within a tenth of a second instead of
// the keep-alive timeout. process_and_close_socket is the library's hook
// for this (its SSL server overrides it too).
#include <httplib.h>

namespace gsparql::server {

class HttpServer final : public httplib::Server {
 private:
  bool process_and_close_socket(socket_t sock) override;
};

}  // namespace gsparql::server
