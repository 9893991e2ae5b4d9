#pragma once
// SPARQL query results as the conformance runner compares them: reading the
// W3C result formats (.srx XML and .srj JSON by the engine's reader of
// SERVICE answers, engine/service/sparql_results.h; .tsv, result sets written as RDF
// with the rs: vocabulary, and RDF graphs for CONSTRUCT and DESCRIBE), and
// comparing two results as the test-suite rules say (bags, order where the
// query orders, blank nodes up to a consistent renaming, ASK booleans, graphs
// up to isomorphism).
//
// Terms are kept in one canonical N-Triples form, so that equal terms are
// equal strings: <iri>, _:label, "lex", "lex"@lang, "lex"^^<dt>, with only
// " \ LF CR escaped in the lexical form, "x"^^xsd:string written "x", and
// language tags lower-cased (BCP 47 tags are case-insensitive).
#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
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

// subject, predicate, object: canonical terms.
using Triple = std::array<std::string, 3>;

// The answer to a query: solutions, an ASK boolean, or an RDF graph.
struct ResultSet {
  bool isBoolean = false;
  bool boolean = false;
  // CONSTRUCT, DESCRIBE: a graph, that is a set of triples.
  bool isGraph = false;
  std::set<Triple> triples;
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
// A Turtle or N-Triples file: the result set it describes with the rs:
// vocabulary (solutions in rs:index order when the file gives one), or else,
// without an rs:ResultSet, the graph it is (an expected CONSTRUCT result).
ResultSet readRdfResult(const std::filesystem::path& turtleFile);

// The graphs of a TriG or N-Quads file, by name in N-Triples form ("" for
// the default graph), each as a graph result.
std::map<std::string, ResultSet> readDatasetResult(const std::filesystem::path& file);

struct UnsupportedFormat : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// By extension: .srx, .srj, .tsv, .ttl, .nt, .rdf. RDF/XML other than an
// rs:ResultSet is converted to N-Triples (convertRdfXml) in scratchDir.
// Throws UnsupportedFormat for other formats.
ResultSet readResultFile(const std::filesystem::path& file,
                         const std::filesystem::path& scratchDir = std::filesystem::temp_directory_path());

// Converts an RDF/XML file to N-Triples with `rapper` (Debian package
// raptor2-utils), the file's URI (fileUri) as base IRI, as the data loader
// resolves Turtle. Throws UnsupportedFormat when rapper is not installed and
// std::runtime_error with rapper's message when it rejects the file.
void convertRdfXml(const std::filesystem::path& rdfXml, const std::filesystem::path& ntriples);
// The same for a file of another syntax rapper reads (`syntax`: its -i name, "turtle").
void convertWithRapper(const std::filesystem::path& file, const std::string& syntax, const std::filesystem::path& ntriples);

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
std::string describe(const Triple& t);  // "s p o ."


}  // namespace gsparql::conformance
