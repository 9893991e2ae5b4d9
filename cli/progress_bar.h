#pragma once
// One status line on a terminal, redrawn in place: bytes read, triples per
// second and an estimate of the time left.
#include <cstdio>

#include "gsparql/load.h"

namespace gsparql::cli {

class ProgressBar {
 public:
  explicit ProgressBar(std::FILE* terminal) : terminal_(terminal) {}
  ~ProgressBar() { clear(); }
  void update(const LoadProgress& progress);
  void clear();

 private:
  std::FILE* terminal_;
  bool drawn_ = false;
};

}  // namespace gsparql::cli
