#include "cli/progress_bar.h"

#include <string>

namespace gsparql::cli {
namespace {

constexpr int kBarWidth = 24;

std::string megabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return text;
}

std::string duration(double seconds) {
  char text[32];
  auto s = static_cast<long>(seconds);
  std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

}  // namespace

void ProgressBar::update(const LoadProgress& p) {
  double rate = p.seconds > 0 ? static_cast<double>(p.triplesRead) / p.seconds : 0;
  std::string line;
  if (p.bytesTotal > 0) {
    double fraction = static_cast<double>(p.bytesRead) / static_cast<double>(p.bytesTotal);
    int filled = static_cast<int>(fraction * kBarWidth);
    line = "[" + std::string(filled, '#') + std::string(kBarWidth - filled, ' ') + "] ";
    line += megabytes(p.bytesRead) + " / " + megabytes(p.bytesTotal);
    if (fraction > 0.01) line += "  ETA " + duration(p.seconds * (1 - fraction) / fraction);
  } else {
    line = megabytes(p.bytesRead) + " read";
  }
  char rateText[64];
  std::snprintf(rateText, sizeof rateText, "  %.2fM triples/s", rate / 1e6);
  line += rateText;
  std::fprintf(terminal_, "\r\033[K%s", line.c_str());
  std::fflush(terminal_);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (!drawn_) return;
  std::fprintf(terminal_, "\r\033[K");
  std::fflush(terminal_);
  drawn_ = false;
}

}  // namespace gsparql::cli
