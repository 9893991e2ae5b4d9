// JSON-LD 1.1 (loaders/jsonld_reader.h, rdf/jsonld/): a document using most
// of JSON-LD's features loads as the same statements as its N-Quads written
// by hand; the loader's guarantees (atomic, positions, --lenient, compressed
// input, --graph); remote contexts refused unless mapped to a local file;
// deep nesting refused before it is parsed.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <sstream>

#include "gsparql/database.h"
#include "loaders/input_stream.h"
#include "loaders/rdf_reader.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Statements with their graph, blank-node labels made anonymous, sorted:
// equal for the small isomorphic datasets here (each blank node has its own statements).
std::vector<std::string> anonymous(std::vector<std::string> lines) {
  static const std::regex label("_:[A-Za-z0-9_.-]+");
  for (std::string& line : lines) line = std::regex_replace(line, label, "_:");
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::vector<std::string> readFile(const std::filesystem::path& file, RdfFormat format, RdfReadOptions options = {}) {
  std::vector<std::string> lines;
  auto input = openInput(file.string());
  readRdf(*input, file.filename().string(), format, [&](const RdfStatementView& s) {
    lines.push_back(std::string(s.subject) + " " + std::string(s.predicate) + " " + std::string(s.object) +
                    (s.graph.empty() ? "" : " " + std::string(s.graph)) + " .");
  }, options);
  return anonymous(lines);
}

std::vector<std::string> readDocument(const std::string& document, bool lenient = false, RdfReadReport* report = nullptr,
                                  const std::vector<std::pair<std::string, std::string>>& contexts = {}) {
  std::vector<std::string> lines;
  MemoryInput input(document);
  RdfReadOptions options;
  options.lenient = lenient;
  options.baseIri = "http://base/doc";
  options.jsonLdContexts = contexts;
  const RdfReadReport got = readRdf(input, "doc.jsonld", RdfFormat::JsonLd, [&](const RdfStatementView& s) {
    lines.push_back(std::string(s.subject) + " " + std::string(s.predicate) + " " + std::string(s.object) + " .");
  }, options);
  if (report != nullptr) *report = got;
  return lines;
}

}  // namespace

TEST_CASE("JSON-LD's features read as the statements written by hand in N-Quads") {
  CHECK(readFile(dataFile("load/features.jsonld"), RdfFormat::JsonLd) ==
        readFile(dataFile("load/features.expected.nq"), RdfFormat::NQuads));
}

TEST_CASE("JSON-LD loads by extension (compressed too), by --format and its media type, into --graph, atomically") {
  TempDir dir;
  // A dump is canonical N-Quads: "Bob"@en-GB comes out as "Bob"@en-gb.
  std::vector<std::string> canonical = readLines(dataFile("load/features.expected.nq"));
  for (std::string& line : canonical) line = std::regex_replace(line, std::regex("@en-GB"), "@en-gb");
  const std::vector<std::string> expected = anonymous(canonical);
  CHECK(rdfFormatOfFileName("data.jsonld.gz") == RdfFormat::JsonLd);
  CHECK(rdfFormatFromName("application/ld+json") == RdfFormat::JsonLd);
  CHECK(rdfFormatFromName("json-ld") == RdfFormat::JsonLd);
  for (const char* input : {"features.jsonld", "features.jsonld.gz"}) {
    CAPTURE(input);
    TempDir each;
    Database::load(each / "db", {dataFile(std::string("load/") + input).string()});
    CHECK(anonymous(sortedDump(each / "db")) == expected);
  }
  std::filesystem::copy_file(dataFile("load/features.jsonld"), dir / "features.data");
  LoadOptions options;
  options.format = rdfFormatFromName("jsonld");
  options.graph = "<http://e/g>";
  Database::load(dir / "db", {(dir / "features.data").string()}, options);
  const std::vector<std::string> dump = sortedDump(dir / "db");
  CHECK(dump.size() == expected.size());
  // The document's named graph keeps its name; the rest goes to --graph.
  CHECK(std::count_if(dump.begin(), dump.end(), [](const std::string& l) { return l.ends_with("<http://e/g> ."); }) ==
        static_cast<long>(expected.size()) - 1);
  // A bad document loads nothing.
  writeFile(dir / "bad.jsonld", "{\"@context\": {\"e\": \"http://e/\"}, \"@id\": \"e:s\", \"e:p\": \"x\", \"@context\": 5}");
  CHECK_THROWS_AS(Database::load(dir / "db", {(dir / "bad.jsonld").string()}), LoadError);
  CHECK(sortedDump(dir / "db") == dump);
}

TEST_CASE("JSON-LD errors: the JSON's position, the JSON-LD error code, deep nesting refused before parsing") {
  CHECK_THROWS_WITH_AS(readDocument("{\n  \"@id\": \"http://e/s\",\n  \"http://e/p\": [1, 2,]\n}"),
                       doctest::Contains("doc.jsonld:3:23: invalid JSON"), LoadError);
  // A JSON-LD error is placed at the innermost object being expanded when it arose.
  CHECK_THROWS_WITH_AS(readDocument("{\"@context\": {\"@vocab\": 5}, \"p\": 1}"),
                       doctest::Contains("doc.jsonld:1:1: invalid vocab mapping: 5"), LoadError);
  CHECK_THROWS_WITH_AS(readDocument("{\"@id\": \"http://e/s\",\n \"http://e/p\": [1, {\"@value\": \"x\", \"@type\": \"bad iri\"}]}"),
                       doctest::Contains("doc.jsonld:2:20: invalid typed value"), LoadError);
  CHECK_THROWS_WITH_AS(readDocument("{\"@context\": {\"p\": {\"@id\": \"http://e/p\", \"@container\": \"@bag\"}}}"),
                       doctest::Contains("invalid container mapping"), LoadError);
  // Terms defined through each other: a chain of 100 is read, one of 600 refused (not a stack overflow, under ASan too).
  const auto chain = [](int length) {
    std::string context = "{\"t" + std::to_string(length) + "\": \"http://e/\"";
    for (int i = 0; i < length; ++i) context += ", \"t" + std::to_string(i) + "\": \"t" + std::to_string(i + 1) + ":x\"";
    return "{\"@context\": " + context + "}, \"@id\": \"http://e/s\", \"t0\": \"v\"}";
  };
  CHECK(readDocument(chain(100)).size() == 1);
  CHECK_THROWS_WITH_AS(readDocument(chain(600)), doctest::Contains("is defined through more than 128 other terms"), LoadError);
  for (const char open : {'[', '{'}) {
    std::string deep;
    for (int i = 0; i < 10000; ++i) deep += open == '[' ? "[" : "{\"http://e/p\":";
    deep += "1";
    for (int i = 0; i < 10000; ++i) deep += open == '[' ? ']' : '}';
    CHECK_THROWS_WITH_AS(readDocument(deep), doctest::Contains("nested deeper than 256 levels"), LoadError);
  }
  // Node objects nested 250 deep, each expanded by a recursion of its own, are read (under ASan too).
  std::string nested = "{\"@id\": \"http://e/leaf\"}";
  for (int i = 0; i < 248; ++i) nested = "{\"http://e/p\": " + nested + "}";
  CHECK(readDocument("{\"@id\": \"http://e/root\", \"http://e/p\": " + nested + "}").size() == 249);
}

TEST_CASE("JSON-LD: a remote context is never fetched, but read from the local file it is mapped to") {
  TempDir dir;
  const std::string document = "{\"@context\": \"https://schema.example/ctx.jsonld\", \"@id\": \"http://e/s\", \"name\": \"x\"}";
  CHECK_THROWS_WITH_AS(readDocument(document), doctest::Contains("loading remote context failed"), LoadError);
  CHECK_THROWS_WITH_AS(readDocument(document), doctest::Contains("--jsonld-context"), LoadError);
  writeFile(dir / "ctx.jsonld", "{\"@context\": {\"name\": \"http://schema.example/name\"}}");
  const std::vector<std::string> expected = {"<http://e/s> <http://schema.example/name> \"x\" ."};
  CHECK(readDocument(document, false, nullptr, {{"https://schema.example/ctx.jsonld", (dir / "ctx.jsonld").string()}}) == expected);
  // A URL ending in '/' maps a folder.
  CHECK(readDocument(document, false, nullptr, {{"https://schema.example/", dir.path().string()}}) == expected);
}

TEST_CASE("JSON-LD: what the algorithm drops is an error, or with --lenient skipped and counted") {
  const std::string document =
      "{\"@context\": {\"@base\": null}, \"@id\": \"relative\", \"http://e/p\": \"x\", "
      "\"http://e/q\": {\"@id\": \"http://e/o\", \"http://e/l\": {\"@value\": \"y\", \"@language\": \"not a tag\"}}}";
  CHECK_THROWS_WITH_AS(readDocument(document), doctest::Contains("(JSON-LD leaves its statements out; --lenient skips them)"),
                       LoadError);
  RdfReadReport report;
  CHECK(readDocument(document, true, &report).empty());
  CHECK(report.skipped == 2);
  CHECK(report.firstErrors.size() == 2);
}

TEST_CASE("JSON-LD output: native values only where lossless, compact IRIs, lists, and it reads back the same") {
  TempDir dir;
  const std::string turtle =
      "@prefix e: <http://e/> . @prefix x: <http://x/ns-> . @prefix urn: <http://not-urn/> .\n"
      "e:s a e:T ; e:int 5 , \"01\"^^<http://www.w3.org/2001/XMLSchema#integer> , -0 ; e:bool true , \"1\"^^<http://www.w3.org/2001/XMLSchema#boolean> ;\n"
      "  e:dec 1.0 ; e:dbl 2.5E0 ; e:str \"s\" ; e:lang \"chat\"@fr ; x:dash <urn:isbn:1> ;\n"
      "  e:json \"{ \\\"b\\\": 1 }\"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> ;\n"
      "  e:list ( 1 \"two\" ( e:three ) ) , () .\n";
  writeFile(dir / "d.ttl", turtle);
  Database::load(dir / "db", {(dir / "d.ttl").string()});
  const Database db(dir / "db");
  std::ostringstream out;
  db.query("PREFIX e: <http://e/> PREFIX x: <http://x/ns-> PREFIX urn: <http://not-urn/> PREFIX unused: <http://u/> "
           "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
      .write(out, ResultFormat::JsonLd);
  const std::string json = out.str();
  CHECK(json.find("\"e\": \"http://e/\"") != std::string::npos);
  CHECK(json.find("\"x\": {\n      \"@id\": \"http://x/ns-\",\n      \"@prefix\": true\n    }") != std::string::npos);
  CHECK(json.find("unused") == std::string::npos);
  CHECK(json.find("\"urn\"") == std::string::npos);  // it would take <urn:isbn:1> for a compact IRI
  CHECK(json.find("\"@type\": \"e:T\"") != std::string::npos);
  CHECK(json.find("\"@list\"") != std::string::npos);
  CHECK(json.find("\"@value\": \"01\"") != std::string::npos);  // not the number 1
  CHECK(json.find("\"@value\": \"-0\"") != std::string::npos);
  CHECK(json.find("\"@value\": \"{ \\\"b\\\": 1 }\"") != std::string::npos);  // the JSON literal's lexical form kept
  writeFile(dir / "out.jsonld", json);
  CHECK(readFile(dir / "out.jsonld", RdfFormat::JsonLd) == readFile(dir / "d.ttl", RdfFormat::Turtle));
}

TEST_CASE("JSON-LD output: lists 300 deep and lists that hold each other are written so that they read back the same") {
  TempDir dir;
  const std::string first = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>";
  const std::string rest = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>";
  const std::string nil = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>";
  std::string triples = "<http://e/s> <http://e/p> _:l0 .\n";
  for (int i = 0; i < 300; ++i) {
    triples += "_:l" + std::to_string(i) + " " + first + " _:l" + std::to_string(i + 1) + " .\n_:l" + std::to_string(i) +
               " " + rest + " " + nil + " .\n";
  }
  triples += "_:l300 " + first + " \"bottom\" .\n_:l300 " + rest + " " + nil + " .\n";
  // Two one-item lists, each the other's item: no list holds them, they stay nodes.
  triples += "_:a " + first + " _:b .\n_:a " + rest + " " + nil + " .\n_:b " + first + " _:a .\n_:b " + rest + " " + nil + " .\n";
  writeFile(dir / "lists.nt", triples);
  Database::load(dir / "db", {(dir / "lists.nt").string()});
  std::ostringstream out;
  Database(dir / "db").dump(out, ResultFormat::JsonLd);
  writeFile(dir / "lists.jsonld", out.str());
  CHECK(readFile(dir / "lists.jsonld", RdfFormat::JsonLd) == readFile(dir / "lists.nt", RdfFormat::NTriples));
}
