#pragma once
// One line per request: time (UTC), client address, method, path, status,
// body bytes sent and milliseconds from the request's arrival at its handler
// to its last byte ("-" where no handler ran, e.g. a body over the limit).
//   2026-11-23T12:00:00.123Z 127.0.0.1 GET /sparql 200 5120 1.250
#include <cstdint>
#include <fstream>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

namespace gsparql::server {

class AccessLog {
 public:
  // "-": standard output; otherwise the file, appended to.
  explicit AccessLog(const std::string& destination);

  void write(const std::string& client, const std::string& method, const std::string& path, int status,
             uint64_t bytes, std::optional<double> milliseconds);

 private:
  std::mutex mutex_;
  std::ofstream file_;
  std::ostream* out_;
};

}  // namespace gsparql::server
