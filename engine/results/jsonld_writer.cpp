// CONSTRUCT and DESCRIBE results, and dumps, in JSON-LD: the statements are
// held until end(), then turned into expanded JSON-LD by the W3C fromRdf
// algorithm (rdf/jsonld/from_rdf.h: one node object a subject, lists as
// @list, named graphs as @graph) and compacted with the prefixes as the
// context (rdf/jsonld/compaction.h). A JSON document cannot be written
// before its last statement is known, so this writer holds the graph in
// memory.
#include <vector>

#include "engine/results/writers.h"
#include "rdf/jsonld/compaction.h"
#include "rdf/jsonld/from_rdf.h"

namespace gsparql::results {
namespace {

class JsonLdWriter final : public GraphWriter {
 public:
  JsonLdWriter(std::ostream& out, const Prefixes& prefixes) : out_(out), prefixes_(prefixes) {}
  void triple(std::string_view s, std::string_view p, std::string_view o) override { quad(s, p, o, {}); }
  void quad(std::string_view s, std::string_view p, std::string_view o, std::string_view g) override {
    quads_.push_back({std::string(s), std::string(p), std::string(o), std::string(g)});
  }
  void end() override {
    jsonld::Options options;
    options.parseJsonLiterals = false;  // an rdf:JSON literal keeps its lexical form
    try {
      const jsonld::Json document = jsonld::compactForOutput(jsonld::fromRdf(quads_, options), prefixes_);
      out_.put(document.dump(2));
    } catch (const jsonld::Json::exception& e) {
      throw WriteError(std::string("JSON-LD cannot write the graph: ") + e.what());
    }
    out_.put('\n');
    out_.flush();
    quads_.clear();
  }

 private:
  OutBuffer out_;
  Prefixes prefixes_;
  std::vector<jsonld::Quad> quads_;
};

}  // namespace

std::unique_ptr<GraphWriter> makeJsonLdWriter(std::ostream& out, const Prefixes& prefixes) {
  return std::make_unique<JsonLdWriter>(out, prefixes);
}

}  // namespace gsparql::results
