// CONSTRUCT and DESCRIBE results, and dumps, in the graph syntaxes:
// N-Triples and N-Quads (one canonical statement a line); Turtle and TriG
// (the query's prefixes declared, IRIs abbreviated where the local name
// allows, consecutive triples of one subject joined by ';', a named graph's
// triples in a `graph { ... }` block); RDF/XML (one rdf:Description a triple,
// streamed). RDF 1.2 triple terms and directional language tags are written
// in each as its RDF 1.2 form defines.
#include <cctype>
#include <cstdint>
#include <cstdio>

#include "engine/results/writers.h"
#include "rdf/rdf_formats.h"
#include "rdf/term_parts.h"

namespace gsparql::results {
namespace {

constexpr std::string_view kRdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

bool isLocalNameChar(unsigned char c) { return std::isalnum(c) || c == '_' || c == '-' || c == '.' || c >= 0x80; }

// Bytes of a stored literal that canonical N-Triples writes otherwise: the
// controls, U+007F, and 0xEF, which starts U+FFFE and U+FFFF.
constexpr ByteSet kNotCanonical(true, {0x7F, 0xEF});
constexpr std::string_view kNamedControls = "\b\t\n\f\r";
constexpr std::string_view kControlNames = "btnfr";

// RDF 1.2 canonical N-Triples and N-Quads (the rdf12 c14n tests): terms as
// stored, but for language tags in lower case and, in literals, the controls
// as \b \t \n \f \r or \u00XX and U+007F, U+FFFE, U+FFFF as \uXXXX.
class LineWriter final : public GraphWriter {
 public:
  LineWriter(std::ostream& out, bool quads) : out_(out), quads_(quads) {}
  void triple(std::string_view s, std::string_view p, std::string_view o) override { quad(s, p, o, {}); }
  void quad(std::string_view s, std::string_view p, std::string_view o, std::string_view g) override {
    if (!g.empty() && !quads_) GraphWriter::quad(s, p, o, g);
    out_.put(s);
    out_.put(' ');
    out_.put(p);
    out_.put(' ');
    putObject(o);
    if (!g.empty()) {
      out_.put(' ');
      out_.put(g);
    }
    out_.put(" .\n");
    out_.maybeFlush();
  }
  void end() override { out_.flush(); }

 private:
  // Subjects, predicates and graphs are IRIs and blank nodes, canonical as stored.
  void putObject(std::string_view term) {
    if (term.starts_with('<') && !term.starts_with("<<(")) return out_.put(term);
    if (rdf::keyDiffersFromTerm(term)) {
      key_ = rdf::termKey(term);
      term = key_;
    }
    size_t at = kNotCanonical.findIn(term);
    if (at == term.size()) return out_.put(term);
    escaped_.assign(term.substr(0, at));
    for (; at < term.size(); ++at) {
      const auto c = static_cast<unsigned char>(term[at]);
      const bool nonCharacter = c == 0xEF && at + 2 < term.size() && term[at + 1] == '\xBF' &&
                                (term[at + 2] == '\xBE' || term[at + 2] == '\xBF');
      const size_t named = c < 0x20 ? kNamedControls.find(static_cast<char>(c)) : std::string_view::npos;
      if (c >= 0x20 && c != 0x7F && !nonCharacter) {
        escaped_ += term[at];
      } else if (named != std::string_view::npos) {
        escaped_ += '\\';
        escaped_ += kControlNames[named];
      } else {
        char code[8];
        std::snprintf(code, sizeof code, "\\u%04X", nonCharacter ? 0xFFFEu + (term[at + 2] == '\xBF') : c);
        escaped_ += code;
        if (nonCharacter) at += 2;
      }
    }
    out_.put(escaped_);
  }

  OutBuffer out_;
  bool quads_;
  std::string key_, escaped_;
};

// Turtle, and TriG when `graphs`: a named graph's triples go into a block
// `<g> {` ... `}`; a block is closed when the graph changes (TriG merges
// blocks of one name, so a graph may come back later).
class TurtleWriter final : public GraphWriter {
 public:
  TurtleWriter(std::ostream& out, const Prefixes& prefixes, bool graphs)
      : out_(out), prefixes_(prefixes), graphs_(graphs) {
    for (const auto& [name, iri] : prefixes_) {
      out_.put("@prefix ");
      out_.put(name);
      out_.put(": <");
      out_.put(iri);
      out_.put("> .\n");
    }
    if (!prefixes_.empty()) out_.put('\n');
  }
  void triple(std::string_view s, std::string_view p, std::string_view o) override { quad(s, p, o, {}); }
  void quad(std::string_view s, std::string_view p, std::string_view o, std::string_view g) override {
    if (!g.empty() && !graphs_) GraphWriter::quad(s, p, o, g);
    if (g != graph_) {
      closeSubject();
      if (!graph_.empty()) out_.put("}\n");
      graph_.assign(g);
      if (!graph_.empty()) {
        put(graph_);
        out_.put(" {\n");
      }
    }
    const std::string_view indent = graph_.empty() ? "" : "  ";
    if (!subject_.empty() && s == subject_) {
      out_.put(" ;\n    ");
      out_.put(indent);
    } else {
      closeSubject();
      out_.put(indent);
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
    closeSubject();
    if (!graph_.empty()) out_.put("}\n");
    graph_.clear();
    out_.flush();
  }

 private:
  void closeSubject() {
    if (!subject_.empty()) out_.put(" .\n");
    subject_.clear();
  }
  // A triple term as it is stored, <<( s p o )>>: Turtle 1.2 and TriG 1.2 read it so.
  void put(std::string_view term) {
    if (term.starts_with("<<(")) return out_.put(term);
    if (auto name = prefixedName(term, prefixes_)) return out_.put(*name);
    out_.put(term);
  }

  OutBuffer out_;
  Prefixes prefixes_;
  bool graphs_;
  std::string subject_;
  std::string graph_;
};

// XML 1.0's NameStartChar and NameChar, less ':' (an NCName's).
bool isNameStartChar(uint32_t c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (c >= 0xC0 && c <= 0xD6) ||
         (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
         (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) || (c >= 0x2070 && c <= 0x218F) ||
         (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
         (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}
bool isNameChar(uint32_t c) {
  return isNameStartChar(c) || c == '-' || c == '.' || (c >= '0' && c <= '9') || c == 0xB7 ||
         (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

// Decodes the UTF-8 sequence at `text[at]` (well-formed: terms are) and moves past it.
uint32_t nextCodePoint(std::string_view text, size_t& at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  uint32_t c = length == 1 ? lead : lead & (0xFF >> (length + 1));
  for (int k = 1; k < length && at + k < text.size(); ++k) c = (c << 6) | (text[at + k] & 0x3F);
  at += length;
  return c;
}

// Where the local name of `iri` starts: the first NameStartChar of the
// longest run of NameChars at its end; npos when there is none.
size_t localNameStart(std::string_view iri) {
  size_t start = std::string_view::npos;
  for (size_t at = iri.size(); at > 0;) {
    size_t back = at - 1;
    while (back > 0 && (static_cast<unsigned char>(iri[back]) & 0xC0) == 0x80) --back;
    size_t probe = back;
    const uint32_t c = nextCodePoint(iri, probe);
    if (!isNameChar(c)) break;
    if (isNameStartChar(c)) start = back;
    at = back;
  }
  return start;
}

bool allowedInXml(uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

// RDF/XML, streamed: the root declares rdf: and the query's prefixes that are
// NCNames; every triple is an rdf:Description with one property element,
// named by a declared prefix where one fits, else with its namespace
// declared on the element itself. Blank nodes are rdf:nodeID="b<label>"
// (an NCName whatever the label).
class RdfXmlWriter final : public GraphWriter {
 public:
  RdfXmlWriter(std::ostream& out, const Prefixes& prefixes) : out_(out) {
    out_.put("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rdf:RDF xmlns:rdf=\"");
    out_.put(kRdfNamespace);
    out_.put('"');
    for (const auto& [name, ns] : prefixes) {
      size_t at = 0;
      bool ncname = !name.empty() && name != "rdf" && !name.starts_with("xml") && !name.starts_with("XML");
      for (bool first = true; ncname && at < name.size(); first = false) {
        const uint32_t c = nextCodePoint(name, at);
        ncname = first ? isNameStartChar(c) : isNameChar(c);
      }
      if (!ncname || ns.empty()) continue;
      out_.put("\n    xmlns:");
      out_.put(name);
      out_.put("=\"");
      putEscaped(ns, true);
      out_.put('"');
      prefixes_.emplace_back(name, ns);
    }
    out_.put(">\n");
  }
  void triple(std::string_view s, std::string_view p, std::string_view o) override {
    description(s, p, o, "  ");
    out_.maybeFlush();
  }
  void end() override {
    out_.put("</rdf:RDF>\n");
    out_.flush();
  }

 private:
  // An rdf:Description of `s` with one property element; a triple term as
  // the object is an RDF/XML 1.2 rdf:parseType="Triple" element, nested.
  void description(std::string_view s, std::string_view p, std::string_view o, const std::string& indent) {
    if (rdf::termKind(s) == rdf::TermKind::Triple) throw WriteError("RDF/XML cannot write a triple term as a subject");
    const rdf::TermParts& subject = splitter_.split(s);
    out_.put(indent);
    out_.put("<rdf:Description ");
    putNode(subject);
    out_.put(">\n");
    out_.put(indent);
    out_.put("  <");
    const rdf::TermParts& predicate = splitter_.split(p);
    const std::string element = propertyElement(predicate.value);
    out_.put(element);
    const rdf::TermParts& object = splitter_.split(o);
    switch (object.kind) {
      case rdf::TermKind::Iri:
      case rdf::TermKind::Blank:
        out_.put(' ');
        putNode(object, "resource");
        out_.put("/>\n");
        break;
      case rdf::TermKind::Triple: {
        rdf::TripleTermParts parts;
        if (!rdf::splitTripleTerm(o, &parts)) throw WriteError("RDF/XML cannot write the malformed term " + std::string(o));
        out_.put(" rdf:parseType=\"Triple\">\n");
        description(parts.subject, parts.predicate, parts.object, indent + "    ");
        out_.put(indent);
        out_.put("  </");
        out_.put(element.substr(0, element.find(' ')));
        out_.put(">\n");
        break;
      }
      case rdf::TermKind::Literal:
        if (!object.language.empty()) {
          out_.put(" xml:lang=\"");
          putEscaped(object.language, true);
          out_.put('"');
          if (!object.direction.empty()) {  // RDF/XML 1.2: ITS 2.0's dir attribute
            out_.put(" its:dir=\"");
            out_.put(object.direction);
            out_.put("\" its:version=\"2.0\" xmlns:its=\"http://www.w3.org/2005/11/its\"");
          }
        } else if (!object.datatype.empty()) {
          out_.put(" rdf:datatype=\"");
          putEscaped(object.datatype, true);
          out_.put('"');
        }
        out_.put('>');
        putEscaped(object.value, false);
        out_.put("</");
        out_.put(element.substr(0, element.find(' ')));
        out_.put(">\n");
        break;
    }
    out_.put(indent);
    out_.put("</rdf:Description>\n");
  }

  // `rdf:about="iri"` or `rdf:nodeID="b..."` (attribute "about", or "resource" for an object).
  void putNode(const rdf::TermParts& term, std::string_view iriAttribute = "about") {
    if (term.kind == rdf::TermKind::Blank) {
      out_.put("rdf:nodeID=\"b");
      for (size_t at = 0; at < term.value.size();) {
        const size_t here = at;
        const uint32_t c = nextCodePoint(term.value, at);
        if (isNameChar(c)) {
          out_.put(term.value.substr(here, at - here));
        } else {  // not in Turtle's or N-Triples' labels, but kept apart
          out_.put("_x" + std::to_string(c) + "_");
        }
      }
      out_.put('"');
      return;
    }
    out_.put("rdf:");
    out_.put(iriAttribute);
    out_.put("=\"");
    putEscaped(term.value, true);
    out_.put('"');
  }

  // "prefix:local", or "ns:local xmlns:ns=\"namespace\"".
  std::string propertyElement(std::string_view iri) {
    const size_t start = localNameStart(iri);
    if (start == std::string_view::npos || start == 0) {
      throw WriteError("RDF/XML cannot write the predicate <" + std::string(iri) +
                       ">: it does not end in an XML name (a letter or '_' followed by letters, digits, '-', '.', '_')");
    }
    const std::string_view ns = iri.substr(0, start);
    const std::string_view local = iri.substr(start);
    if (ns == kRdfNamespace) {
      static constexpr std::string_view kForbidden[] = {
          "RDF", "ID", "about", "bagID", "parseType", "resource", "nodeID", "datatype", "Description", "li",
          "aboutEach", "aboutEachPrefix"};
      for (std::string_view forbidden : kForbidden) {
        if (local == forbidden) {
          throw WriteError("RDF/XML cannot write the predicate rdf:" + std::string(local) +
                           ": RDF/XML reserves that name");
        }
      }
      return "rdf:" + std::string(local);
    }
    for (const auto& [name, declared] : prefixes_) {
      if (declared == ns) return name + ":" + std::string(local);
    }
    std::string element = "ns:" + std::string(local) + " xmlns:ns=\"";
    escapeInto(element, ns, true);
    return element + "\"";
  }

  void putEscaped(std::string_view text, bool attribute) {
    escaped_.clear();
    escapeInto(escaped_, text, attribute);
    out_.put(escaped_);
  }

  static void escapeInto(std::string& out, std::string_view text, bool attribute) {
    for (size_t at = 0; at < text.size();) {
      const size_t here = at;
      const uint32_t c = nextCodePoint(text, at);
      if (!allowedInXml(c)) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
        throw WriteError(std::string("RDF/XML cannot carry the character ") + code + " (XML 1.0 has no way to write it)");
      }
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += attribute ? "&quot;" : "\""; break;
        case '\r': out += "&#xD;"; break;
        case '\n': out += attribute ? "&#xA;" : "\n"; break;
        case '\t': out += attribute ? "&#x9;" : "\t"; break;
        default: out.append(text.substr(here, at - here));
      }
    }
  }

  OutBuffer out_;
  Prefixes prefixes_;
  rdf::TermSplitter splitter_;
  std::string escaped_;
};

}  // namespace

void GraphWriter::quad(std::string_view s, std::string_view p, std::string_view o, std::string_view graph) {
  if (graph.empty()) return triple(s, p, o);
  throw WriteError("a graph syntax without named graphs cannot write a triple of the named graph " +
                   std::string(graph) + " (use N-Quads or TriG)");
}

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
  switch (format) {
    case Format::Turtle: return std::make_unique<TurtleWriter>(out, prefixes, false);
    case Format::TriG: return std::make_unique<TurtleWriter>(out, prefixes, true);
    case Format::NQuads: return std::make_unique<LineWriter>(out, true);
    case Format::RdfXml: return std::make_unique<RdfXmlWriter>(out, prefixes);
    case Format::JsonLd: return makeJsonLdWriter(out, prefixes);
    case Format::NTriples: return std::make_unique<LineWriter>(out, false);
    default: break;
  }
  throw std::invalid_argument("not a graph format: " + std::string(formatName(format)));
}

}  // namespace gsparql::results
