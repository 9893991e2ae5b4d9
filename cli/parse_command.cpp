#include "cli/parse_command.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "gsparql/error.h"
#include "gsparql/query.h"

namespace gsparql::cli {
namespace {

constexpr const char* kUsage =
    "usage: gsparql parse QUERY\n"
    "       gsparql parse -f FILE     (FILE '-' reads standard input)\n"
    "Prints the SPARQL algebra of the query and the query graph of each BGP.\n";

bool readQuery(int argc, char** argv, std::string& text) {
  if (argc == 2 && std::string(argv[1]) != "-f" && std::string(argv[1]) != "-h" &&
      std::string(argv[1]) != "--help") {
    text = argv[1];
    return true;
  }
  if (argc != 3 || std::string(argv[1]) != "-f") return false;
  std::string path = argv[2];
  std::ostringstream buffer;
  if (path == "-") {
    buffer << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "gsparql parse: cannot read " << path << "\n";
      return false;
    }
    buffer << in.rdbuf();
  }
  text = buffer.str();
  return true;
}

}  // namespace

int runParseCommand(int argc, char** argv) {
  std::string text;
  if (!readQuery(argc, argv, text)) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    std::cout << describeParsedQuery(text);
    return 0;
  } catch (const QueryError& e) {
    std::cerr << "gsparql parse: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace gsparql::cli
