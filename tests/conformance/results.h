#pragma once
// SPARQL query results as the conformance runner compares them: reading the
// W3C result formats (.srx XML, .srj JSON, .tsv, and result sets written as
// RDF with the rs: vocabulary), and comparing two results as the test-suite
// rules say (bags, order where the query orders, blank nodes up to a
// consistent renaming, ASK booleans).
//
// Terms are kept in one canonical N-Triples form, so that equal terms are
// equal strings: <iri>, _:label, "lex", "lex"@lang, "lex"^^<dt>, with only
// " \ LF CR escaped in the lexical form, "x"^^xsd:string written "x", and
// language tags lower-cased (BCP 47 tags are case-insensitive).
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::conformance {

std::string canonicalIri(std::string_view iri);
std::string canonicalBlank(std::string_view label);
// datatype: the IRI without <>; empty for a simple literal (or a language-tagged one).
std::string canonicalLiteral(std::string_view lexical, std::string_view lang, std::string_view datatype);
// Parses a term in N-Triples syntax (any N-Triples escape in the literal) and
// returns its canonical form. Throws std::runtime_error on a malformed term.
std::string canonicalTerm(std::string_view ntriplesTerm);
inline bool isBlank(const std::string& canonical) { return canonical.rfind("_:", 0) == 0; }

// One solution: variable (without '?') -> term; unbound variables are absent.
using Solution = std::map<std::string, std::string>;

struct ResultSet {
  bool isBoolean = false;
  bool boolean = false;
  std::vector<std::string> variables;
  std::vector<Solution> solutions;
  // From TSV, where an xsd:double may be written as a bare Turtle number and
  // writers do not keep the case of its exponent marker: such results compare
  // xsd:double lexical forms with 'e' and 'E' taken as equal.
  bool abbreviatedDoubles = false;
};

// Each throws std::runtime_error with a short reason on malformed input.
ResultSet parseSrx(std::string_view xml);
ResultSet parseSrj(std::string_view json);
ResultSet parseTsv(std::string_view tsv);
// An rs:ResultSet written in RDF/XML, in the plain shape the W3C files use:
// parseType="Resource" or nested rdf:Description nodes, rdf:resource,
// rdf:nodeID, rdf:datatype and xml:lang on the property element itself.
ResultSet parseRdfXmlResultSet(std::string_view xml);
// A result set written in RDF (rs:ResultSet), read from a Turtle file;
// solutions are in rs:index order when the file gives one.
ResultSet readRdfResultSet(const std::filesystem::path& turtleFile);
// By extension: .srx, .srj, .tsv, .ttl, .rdf. Throws UnsupportedFormat for others.
ResultSet readResultFile(const std::filesystem::path& file);

struct UnsupportedFormat : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CompareOptions {
  // Non-empty when the query has ORDER BY: the solutions must come in the
  // expected order of these variables' values (blank nodes compare equal).
  std::vector<std::string> orderKeys;
  // mf:LaxCardinality (REDUCED): each solution may occur fewer times in the
  // actual results than in the expected ones, but at least once.
  bool laxCardinality = false;
  // Upper bound on the blank-node matching search.
  size_t maxSteps = 2'000'000;
};

// nullopt when the results are equivalent, else a short human-readable difference.
std::optional<std::string> compareResults(const ResultSet& expected, const ResultSet& actual,
                                          const CompareOptions& options = {});

std::string describe(const Solution& s);

}  // namespace gsparql::conformance
