#include "options/option_values.h"

#include <algorithm>
#include <cctype>

namespace gsparql::options {

std::chrono::milliseconds parseTimeout(const std::string& seconds) {
  size_t end = 0;
  double value = 0;
  try {
    value = std::stod(seconds, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end != seconds.size() || !(value > 0) || value > 1e9) {
    throw UsageError("timeout '" + seconds + "': expected a number of seconds greater than 0");
  }
  return std::chrono::milliseconds(std::max<int64_t>(1, static_cast<int64_t>(value * 1000)));
}

std::optional<std::chrono::milliseconds> parseTimeLimit(const std::string& seconds) {
  if (seconds == "none" || seconds == "0") return std::nullopt;
  return parseTimeout(seconds);
}

uint64_t parseByteSize(const std::string& size) {
  size_t end = 0;
  uint64_t value = 0;
  try {
    // std::stoull reads "-1" as the largest number: only digits may start a size.
    if (!size.empty() && std::isdigit(static_cast<unsigned char>(size[0]))) value = std::stoull(size, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  static const std::string kUnits = "KMGT";
  const size_t unit = end + 1 == size.size() ? kUnits.find(static_cast<char>(std::toupper(size.back()))) : 0;
  if (end == 0 || value == 0 || unit == std::string::npos || (end != size.size() && end + 1 != size.size())) {
    throw UsageError("size '" + size + "': expected a number of bytes, or of K, M, G or T (binary units), e.g. 8G");
  }
  const int shift = end == size.size() ? 0 : 10 * static_cast<int>(unit + 1);
  if (value > (UINT64_MAX >> shift)) throw UsageError("size '" + size + "' is too large");
  return value << shift;
}

}  // namespace gsparql::options
