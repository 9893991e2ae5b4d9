// The graph writers and RDF 1.2: triple terms and base directions in each
// syntax, and canonical N-Triples (language tags in lower case, controls as
// escapes), as the W3C rdf12 c14n tests define it.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "engine/results/result_writer.h"

using namespace gsparql::results;

namespace {

const std::string kTriple = "<<( <http://e/a> <http://e/b> <<( _:x <http://e/c> \"v\"@ar--rtl )>> )>>";

std::string write(Format format, std::string_view s, std::string_view p, std::string_view o,
                  const Prefixes& prefixes = {}) {
  std::ostringstream out;
  const auto writer = makeGraphWriter(format, out, prefixes);
  writer->triple(s, p, o);
  writer->end();
  return out.str();
}

}  // namespace

TEST_CASE("N-Triples: RDF 1.2 canonical form, triple terms as stored") {
  CHECK(write(Format::NTriples, "<http://e/s>", "<http://e/p>", kTriple) == "<http://e/s> <http://e/p> " + kTriple + " .\n");
  CHECK(write(Format::NTriples, "<http://e/s>", "<http://e/p>", "\"a\tb\x01\x7f\xEF\xBF\xBF\"@EN-GB--ltr") ==
        "<http://e/s> <http://e/p> \"a\\tb\\u0001\\u007F\\uFFFF\"@en-gb--ltr .\n");
  CHECK(write(Format::NTriples, "<http://e/s>", "<http://e/p>", "<<( <http://e/a> <http://e/b> \"A\"@EN )>>") ==
        "<http://e/s> <http://e/p> <<( <http://e/a> <http://e/b> \"A\"@en )>> .\n");
}

TEST_CASE("Turtle: a triple term as <<( s p o )>>, its parts in full, whatever the prefixes") {
  const std::string ttl = write(Format::Turtle, "<http://e/s>", "<http://e/p>", kTriple, {{"e", "http://e/"}});
  CHECK(ttl == "@prefix e: <http://e/> .\n\ne:s e:p " + kTriple + " .\n");
}

TEST_CASE("RDF/XML 1.2: rdf:parseType=\"Triple\" for a triple term, its:dir for a base direction") {
  const std::string xml = write(Format::RdfXml, "<http://e/s>", "<http://e/p>", kTriple);
  CHECK(xml.find("<ns:p xmlns:ns=\"http://e/\" rdf:parseType=\"Triple\">\n"
                 "      <rdf:Description rdf:about=\"http://e/a\">\n"
                 "        <ns:b xmlns:ns=\"http://e/\" rdf:parseType=\"Triple\">\n"
                 "          <rdf:Description rdf:nodeID=\"bx\">\n"
                 "            <ns:c xmlns:ns=\"http://e/\" xml:lang=\"ar\" its:dir=\"rtl\" its:version=\"2.0\" "
                 "xmlns:its=\"http://www.w3.org/2005/11/its\">v</ns:c>\n") != std::string::npos);
  CHECK(xml.find("    </ns:p>\n  </rdf:Description>\n</rdf:RDF>") != std::string::npos);
}

TEST_CASE("JSON-LD: @direction for a base direction, and no form for a triple term") {
  CHECK(write(Format::JsonLd, "<http://e/s>", "<http://e/p>", "\"v\"@ar--rtl").find("\"@direction\": \"rtl\"") !=
        std::string::npos);
  CHECK_THROWS(write(Format::JsonLd, "<http://e/s>", "<http://e/p>", kTriple));
}
