#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "parser/parse.h"
#include "parser/print.h"
#include "parser/query_graph.h"
#include "rdf/term.h"
#include "support/files.h"

namespace gsparql::sparql::test {

inline const std::string kEx = "http://example.org/";
inline std::string ex(const std::string& local) { return rdf::iriTerm(kEx + local); }
inline std::string xsd(const std::string& lexical, const std::string& type) {
  return rdf::literalTerm(lexical, {}, std::string(rdf::kXsd) + type);
}
inline Term var(const std::string& n) { return Term::variable(n); }
inline Term con(const std::string& t) { return Term::constant(t); }

inline Query parse(const std::string& body) {
  return parseQuery("PREFIX : <" + kEx + ">\n" + body);
}

// The operator below Project (the WHERE pattern of a plain SELECT).
inline const Op& where(const Query& q) {
  const Op* op = q.pattern.get();
  REQUIRE(op->kind == Op::Kind::Project);
  return *op->children[0];
}

inline std::string readFile(const std::filesystem::path& p) { return gsparql::test::readText(p); }

inline std::vector<std::filesystem::path> dataFiles(const std::string& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GSPARQL_PARSER_TEST_DATA) + "/" + dir)) {
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gsparql::sparql::test
