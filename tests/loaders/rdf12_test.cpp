// RDF 1.2 in the Turtle family (loaders/turtle_reader.h): triple terms,
// reified triples, annotations, base directions and VERSION, each format
// held to its own grammar; errors with their line and column, lenient reads
// that skip a bad RDF 1.2 statement, nesting refused beyond its limit; and a
// database that stores triple terms as terms.
#include <doctest/doctest.h>

#include <algorithm>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "loaders/input_stream.h"
#include "loaders/rdf_reader.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kReifies = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies>";

// The statements of `document`, one "s p o [g] ." line each, sorted.
std::vector<std::string> read(const std::string& document, RdfFormat format, bool lenient = false,
                              RdfReadReport* report = nullptr) {
  std::vector<std::string> lines;
  MemoryInput input(document);
  RdfReadOptions options;
  options.lenient = lenient;
  options.baseIri = "http://base/doc";
  const RdfReadReport got = readRdf(input, "doc", format, [&](const RdfStatementView& s) {
    lines.push_back(std::string(s.subject) + " " + std::string(s.predicate) + " " + std::string(s.object) +
                    (s.graph.empty() ? "" : " " + std::string(s.graph)) + " .");
  }, options);
  if (report != nullptr) *report = got;
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::vector<std::string> turtle(const std::string& body) {
  return read("PREFIX : <http://e/>\n" + body, RdfFormat::Turtle);
}

// The message of the LoadError that a strict read of `document` throws.
std::string errorOf(const std::string& document, RdfFormat format) {
  try {
    read(document, format);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "no error";
}

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

}  // namespace

TEST_CASE("triple terms nest, in N-Triples and Turtle alike, with one space between their parts") {
  const std::string nested = "<<( <http://e/a> <http://e/b> <<( _:x <http://e/d> \"v\"@ar--rtl )>> )>>";
  const std::vector<std::string> expected = {"<http://e/s> <http://e/p> " + nested + " ."};
  CHECK(read("<http://e/s> <http://e/p> <<(<http://e/a>   <http://e/b> <<( _:x <http://e/d> \"v\"@ar--rtl)>> )>> .\n",
             RdfFormat::NTriples) == expected);
  CHECK(turtle(":s :p <<( :a :b <<( _:x :d \"v\"@ar--rtl )>> )>> .") == expected);
  CHECK(read("<http://e/s> <http://e/p> " + nested + " <http://e/g> .\n", RdfFormat::NQuads) ==
        std::vector<std::string>{"<http://e/s> <http://e/p> " + nested + " <http://e/g> ."});
}

TEST_CASE("a reified triple is its reifier, given after ~ or a fresh blank node, which rdf:reifies the triple term") {
  const std::vector<std::string> got = turtle(":x :p << :s :q :o ~ :r >> .\n<< :a :b :c >> :says :y .");
  REQUIRE(got.size() == 4);
  CHECK(got[0] == "<http://e/r> " + kReifies + " <<( <http://e/s> <http://e/q> <http://e/o> )>> .");
  CHECK(got[1] == "<http://e/x> <http://e/p> <http://e/r> .");
  CHECK(got[2] == "_:b1 <http://e/says> <http://e/y> .");
  CHECK(got[3] == "_:b1 " + kReifies + " <<( <http://e/a> <http://e/b> <http://e/c> )>> .");
}

TEST_CASE("an annotation asserts the triple and describes its reifier") {
  const std::vector<std::string> got = turtle(":s :p :o ~ :r {| :source :w |} {| :n 1 |} .");
  const std::string triple = "<<( <http://e/s> <http://e/p> <http://e/o> )>>";
  CHECK(got == std::vector<std::string>{
                   "<http://e/r> <http://e/source> <http://e/w> .",
                   "<http://e/r> " + kReifies + " " + triple + " .",
                   "<http://e/s> <http://e/p> <http://e/o> .",
                   "_:b1 <http://e/n> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .",
                   "_:b1 " + kReifies + " " + triple + " .",
               });
  // TriG: an annotation's braces are not a graph block's, at the top and inside one.
  CHECK(read("PREFIX : <http://e/>\n:s :p :o {| :q :r |} .\n:g { :a :b :c {| :q :r |} . }\n", RdfFormat::TriG).size() == 6);
}

TEST_CASE("base directions ltr and rtl after the language tag, and the VERSION and @version directives") {
  CHECK(turtle(":s :p \"x\"@en-GB--ltr .") == std::vector<std::string>{"<http://e/s> <http://e/p> \"x\"@en-GB--ltr ."});
  CHECK(errorOf("<http://e/s> <http://e/p> \"x\"@en--up .\n", RdfFormat::NTriples).starts_with("doc:1:35: a base direction"));
  CHECK(turtle("VERSION \"1.2\"\n@version '1.2-basic' .\nversion \"1.2\"\n:s :p :o .").size() == 1);
  CHECK(errorOf("VERSION 1.2\n", RdfFormat::Turtle).starts_with("doc:1:9: expected a short string"));
  // N-Triples 1.2: VERSION and a string in double quotes, on a line of its own, without '.'.
  CHECK(read("VERSION \"1.2\"\n<http://e/s> <http://e/p> <http://e/o> .\n", RdfFormat::NTriples).size() == 1);
  CHECK(errorOf("VERSION '1.2'\n", RdfFormat::NQuads).starts_with("doc:1:9: expected a string in double quotes"));
}

TEST_CASE("N-Triples and N-Quads refuse what only Turtle and TriG have, at its line and column") {
  const std::string s = "<http://e/s> <http://e/p> ";
  CHECK(errorOf(s + "<< <http://e/a> <http://e/b> <http://e/c> >> .\n", RdfFormat::NTriples).starts_with("doc:1:27: expected an object"));
  CHECK(errorOf(s + "<http://e/o> {| <http://e/q> <http://e/r> |} .\n", RdfFormat::NTriples).starts_with("doc:1:40: expected '.'"));
  CHECK(errorOf(s + "<http://e/o> ~ <http://e/r> .\n", RdfFormat::NQuads).starts_with("doc:1:40: expected a graph name"));
  CHECK(errorOf("<<( <http://e/a> <http://e/b> <http://e/c> )>> <http://e/p> <http://e/o> .\n", RdfFormat::NTriples)
            .starts_with("doc:1:1: expected a subject"));
  const std::string shortTriple = errorOf("PREFIX : <http://e/>\n:s :p <<( :a :b )>> .\n", RdfFormat::Turtle);
  CAPTURE(shortTriple);
  CHECK(shortTriple.starts_with("doc:2:17: expected the object"));
  CHECK(errorOf("PREFIX : <http://e/>\n:s :p << \"lit\" :b :c >> .\n", RdfFormat::Turtle).starts_with("doc:2:10: expected the subject"));
}

TEST_CASE("a lenient read skips a bad RDF 1.2 statement, reports it, and keeps the rest") {
  RdfReadReport report;
  const std::string s = "<http://e/s> <http://e/p> ";
  const std::vector<std::string> got =
      read(s + "<<( <http://e/a> <http://e/b> <http://e/c> )>> .\n" + s + "<< <http://e/a> <http://e/b> <http://e/c> >> .\n" +
               s + "\"ok\" .\n",
           RdfFormat::NTriples, true, &report);
  CHECK(got.size() == 2);
  CHECK(report.skipped == 1);
  REQUIRE(report.firstErrors.size() == 1);
  CHECK(report.firstErrors[0].starts_with("doc:2:27:"));
  // Turtle: the annotation of a bad statement goes with it.
  const std::vector<std::string> ttl =
      read("PREFIX : <http://e/>\n:s :p :o {| :q |} .\n:s :p :o2 {| :q :r |} .\n", RdfFormat::Turtle, true, &report);
  CHECK(ttl.size() == 3);
  CHECK(report.skipped == 1);
}

TEST_CASE("nesting of triple terms, reified triples and annotations is refused beyond 512 levels, not overflowing the stack") {
  const std::string deepTriple = "<http://e/s> <http://e/p> " + repeated("<<( <http://e/s> <http://e/p> ", 100000) + "<http://e/o>" +
                                 repeated(" )>>", 100000) + " .\n";
  CHECK(errorOf(deepTriple, RdfFormat::NTriples).find("nesting deeper than 512 levels") != std::string::npos);
  const std::string deepReified = "PREFIX : <http://e/>\n:x :p " + repeated("<< :s :p ", 10000) + ":o" + repeated(" >>", 10000) + " .\n";
  CHECK(errorOf(deepReified, RdfFormat::Turtle).find("nesting deeper than 512 levels") != std::string::npos);
  const std::string deepAnnotation = "PREFIX : <http://e/>\n:s :p :o " + repeated("{| :p :o ", 10000) + repeated("|} ", 10000) + ".\n";
  CHECK(errorOf(deepAnnotation, RdfFormat::Turtle).find("nesting deeper than 512 levels") != std::string::npos);
  const std::string deepest = "<http://e/s> <http://e/p> " + repeated("<<( <http://e/s> <http://e/p> ", 511) + "<http://e/o>" +
                              repeated(" )>>", 511) + " .\n";
  CHECK(read(deepest, RdfFormat::NTriples).size() == 1);
}

TEST_CASE("a database loaded from Turtle 1.2 stores triple terms and directional literals as terms") {
  TempDir dir;
  writeFile(dir / "data.ttl",
            "PREFIX : <http://e/>\n"
            ":alice :says <<( :bob :age 23 )>> .\n"
            ":bob :name \"بوب\"@ar--rtl ~ :claim {| :by :alice |} .\n");
  Database::load(dir / "db", {(dir / "data.ttl").string()});
  const Database db(dir / "db");
  CHECK(sortedLines(db.query("SELECT ?o { <http://e/alice> <http://e/says> ?o }")) ==
        std::vector<std::string>{"<<( <http://e/bob> <http://e/age> \"23\"^^<http://www.w3.org/2001/XMLSchema#integer> )>>"});
  CHECK(sortedLines(db.query("SELECT ?o { <http://e/claim> ?p ?o }")) ==
        std::vector<std::string>{"<<( <http://e/bob> <http://e/name> \"بوب\"@ar--rtl )>>", "<http://e/alice>"});
  CHECK(sortedLines(db.query("SELECT ?o { <http://e/bob> <http://e/name> ?o }")) ==
        std::vector<std::string>{"\"بوب\"@ar--rtl"});
  // The dump reads back as the same statements.
  const std::vector<std::string> dump = sortedDump(dir / "db");
  CHECK(dump.size() == 4);
  std::string text;
  for (const std::string& line : dump) text += line + "\n";
  std::vector<std::string> again = read(text, RdfFormat::NTriples);
  CHECK(again == dump);
}
