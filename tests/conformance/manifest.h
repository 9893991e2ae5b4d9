#pragma once
// Reading the W3C test-suite manifests (Turtle, mf:/qt: vocabularies) with the
// project's own RDF reader. Shared by the syntax and evaluation runners.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gsparql::conformance {

inline const std::string kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline const std::string kXsd = "http://www.w3.org/2001/XMLSchema#";
inline const std::string kMf = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#";
inline const std::string kQt = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#";
inline const std::string kRs = "http://www.w3.org/2001/sw/DataAccess/tests/result-set#";
inline const std::string kSd = "http://www.w3.org/ns/sparql-service-description#";
inline const std::string kUt = "http://www.w3.org/2009/sparql/tests/test-update#";

// "<" + iri + ">"
std::string iriTerm(const std::string& iri);

// The triples of one Turtle (or N-Triples) document, indexed by subject; terms in the
// rdf/term.h N-Triples form. Relative IRIs resolve against the file's URI.
class RdfGraph {
 public:
  static RdfGraph read(const std::filesystem::path& turtleFile);

  std::vector<std::string> objects(const std::string& subject, const std::string& predicate) const;
  std::optional<std::string> object(const std::string& subject, const std::string& predicate) const;
  std::vector<std::string> subjects(const std::string& predicate, const std::string& object) const;
  // The members of the RDF collection starting at `head` (rdf:first/rdf:rest).
  std::vector<std::string> list(const std::string& head) const;
  const std::vector<std::string>& subjectsInOrder() const { return subjectOrder_; }
  // Calls visit(subject, predicate, object) for every triple, duplicates included.
  template <class Visit>
  void forEachTriple(Visit&& visit) const {
    for (const auto& [subject, properties] : bySubject_)
      for (const auto& [predicate, object] : properties) visit(subject, predicate, object);
  }

 private:
  std::map<std::string, std::multimap<std::string, std::string>> bySubject_;
  std::vector<std::string> subjectOrder_;
};

// One test of a manifest: its subject and everything the runners look at.
struct ManifestTest {
  std::string subject;    // the test's IRI or blank-node term
  std::string name;       // local part of the IRI ("dawg-triple-pattern-001")
  std::string type;       // local name of its mf: type ("QueryEvaluationTest")
  std::string title;      // mf:name, when given
};

// The tests of a manifest in mf:entries order (every subject typed with an
// mf:*Test class when the manifest has no mf:entries list).
std::vector<ManifestTest> manifestTests(const RdfGraph& manifest);

// A data file and the graph it is loaded into.
struct GraphFile {
  std::filesystem::path file;
  std::string graph;  // "<iri>"; empty: the default graph
};
// The ut:graphData [ ut:graph <file> ; rdfs:label "name" ] of an action or result.
std::vector<GraphFile> graphData(const RdfGraph& manifest, const std::string& node);

// The lexical form of a literal term ("abc"@en -> abc); the term itself otherwise.
std::string lexicalForm(const std::string& term);
// A file:// IRI term as a path (<file:///a/b.rq> -> /a/b.rq).
std::filesystem::path pathOfIri(const std::string& iriTerm);
// The file URI the RDF reader uses as a file's base: file:// + absolute normal path.
std::string fileUri(const std::filesystem::path& file);

}  // namespace gsparql::conformance
