#pragma once
// An HTTP error answer decided while reading or running a request: the
// status and a message for the person who sent it.
#include <stdexcept>
#include <string>

namespace gsparql::server {

class HttpError : public std::runtime_error {
 public:
  HttpError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

}  // namespace gsparql::server
