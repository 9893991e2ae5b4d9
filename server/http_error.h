#pragma once
// An HTTP error answer decided while reading or running a request: the
// status and a message for the person who sent it.
#include <stdexcept>
#include <string>

namespace gsparql::server {

class HttpError : public std::runtime_error {
 public:
  // closesConnection: the request's body was not read (all of it), so the
  // connection cannot carry another request.
  HttpError(int status, const std::string& message, bool closesConnection = false)
      : std::runtime_error(message), status_(status), closesConnection_(closesConnection) {}
  int status() const { return status_; }
  bool closesConnection() const { return closesConnection_; }

 private:
  int status_;
  bool closesConnection_;
};

}  // namespace gsparql::server
