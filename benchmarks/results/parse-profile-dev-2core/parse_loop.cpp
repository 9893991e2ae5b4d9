#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include "parser/parse.h"
int main(int argc, char** argv) {
  std::ifstream in(argv[1]); std::stringstream ss; ss << in.rdbuf(); std::string text = ss.str();
  int n = atoi(argv[2]);
  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) { auto q = gsparql::sparql::parseQuery(text); }
  double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count() / n;
  std::printf("%.1f us per parse\n", us);
}
