#include "server/access_log.h"

#include <cstdio>
#include <ctime>
#include <iostream>

#include "gsparql/error.h"

namespace gsparql::server {
namespace {

std::string utcNow() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[64];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
  return text;
}

}  // namespace

AccessLog::AccessLog(const std::string& destination) : out_(&std::cout) {
  if (destination == "-") return;
  file_.open(destination, std::ios::app);
  if (!file_) throw Error("cannot open the access log " + destination);
  out_ = &file_;
}

void AccessLog::write(const std::string& client, const std::string& method, const std::string& path, int status,
                      uint64_t bytes, std::optional<double> milliseconds) {
  char ms[32] = "-";
  if (milliseconds) std::snprintf(ms, sizeof(ms), "%.3f", *milliseconds);
  const std::string line = utcNow() + ' ' + client + ' ' + method + ' ' + path + ' ' + std::to_string(status) + ' ' +
                           std::to_string(bytes) + ' ' + ms + '\n';
  std::lock_guard lock(mutex_);
  *out_ << line << std::flush;
}

}  // namespace gsparql::server
