#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include "parser/parse.h"
#include "parser/syntax_error.h"
int main(int, char** argv) {
  std::ifstream in(argv[1]); std::stringstream ss; ss << in.rdbuf(); std::string text = ss.str();
  auto t = std::chrono::steady_clock::now();
  try { gsparql::sparql::parseQuery(text); } catch (const std::exception&) {}
  std::printf("%.1f ms\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
}
