// CONSTRUCT and DESCRIBE results as N-Triples (one canonical triple a line)
// or as Turtle: the query's prefixes declared, IRIs abbreviated where the
// local name allows, and consecutive triples of one subject joined by ';'.
#include <cctype>

#include "engine/results/writers.h"

namespace gsparql::results {
namespace {

bool isLocalNameChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80; }

class NTriplesWriter final : public GraphWriter {
 public:
  explicit NTriplesWriter(std::ostream& out) : out_(out) {}
  void triple(std::string_view s, std::string_view p, std::string_view o) override {
    out_.put(s);
    out_.put(' ');
    out_.put(p);
    out_.put(' ');
    out_.put(o);
    out_.put(" .\n");
    out_.maybeFlush();
  }
  void end() override { out_.flush(); }

 private:
  OutBuffer out_;
};

class TurtleWriter final : public GraphWriter {
 public:
  TurtleWriter(std::ostream& out, const Prefixes& prefixes) : out_(out), prefixes_(prefixes) {
    for (const auto& [name, iri] : prefixes_) {
      out_.put("@prefix ");
      out_.put(name);
      out_.put(": <");
      out_.put(iri);
      out_.put("> .\n");
    }
    if (!prefixes_.empty()) out_.put('\n');
  }
  void triple(std::string_view s, std::string_view p, std::string_view o) override {
    if (!subject_.empty() && s == subject_) {
      out_.put(" ;\n    ");
    } else {
      if (!subject_.empty()) out_.put(" .\n");
      subject_.assign(s);
      put(s);
      out_.put(' ');
    }
    if (p == "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>") {
      out_.put('a');
    } else {
      put(p);
    }
    out_.put(' ');
    put(o);
    out_.maybeFlush();
  }
  void end() override {
    if (!subject_.empty()) out_.put(" .\n");
    out_.flush();
  }

 private:
  void put(std::string_view term) {
    if (auto name = prefixedName(term, prefixes_)) return out_.put(*name);
    out_.put(term);
  }

  OutBuffer out_;
  Prefixes prefixes_;
  std::string subject_;
};

}  // namespace

std::optional<std::string> prefixedName(std::string_view iriTerm, const Prefixes& prefixes) {
  if (iriTerm.size() < 2 || iriTerm.front() != '<') return std::nullopt;
  const std::string_view iri = iriTerm.substr(1, iriTerm.size() - 2);
  for (const auto& [name, ns] : prefixes) {
    if (ns.empty() || !iri.starts_with(ns)) continue;
    const std::string_view local = iri.substr(ns.size());
    bool valid = local.empty() || (local.front() != '.' && local.front() != '-' && local.back() != '.');
    for (unsigned char c : local) valid = valid && isLocalNameChar(c);
    if (valid) return name + ":" + std::string(local);
  }
  return std::nullopt;
}

std::unique_ptr<GraphWriter> makeGraphWriter(Format format, std::ostream& out, const Prefixes& prefixes) {
  if (format == Format::Turtle) return std::make_unique<TurtleWriter>(out, prefixes);
  return std::make_unique<NTriplesWriter>(out);
}

}  // namespace gsparql::results
