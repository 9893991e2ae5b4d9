// SPARQL Query Results XML Format, laid out exactly as Jena 4.5 writes it
// (two-space indentation, one element per line). Text escapes &, <, >;
// attribute values also escape '"'; characters below U+0020 become
// hexadecimal character references (&#x0009;), as Jena does. Note that XML 1.0
// has no way to carry U+0001..U+0008 and similar: their references are not
// well-formed XML 1.0 (Jena writes the same). SPARQL 1.2: a triple term is
// <triple><subject>..</subject><predicate>..</predicate><object>..</object></triple>,
// a base direction its:dir="rtl" (the ITS 2.0 namespace, declared where used).
#include "engine/results/writers.h"
#include "rdf/term_parts.h"

namespace gsparql::results {
namespace {


constexpr ByteSet kXmlTextSpecial(true, {'&', '<', '>'});
constexpr ByteSet kXmlAttributeSpecial(true, {'&', '<', '>', '"'});

size_t appendXmlEscape(unsigned char c, std::string_view, size_t, std::string& out) {
  switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: {
      const char ref[8] = {'&', '#', 'x', '0', '0', kHex[c >> 4], kHex[c & 15], ';'};
      out.append(ref, 8);
    }
  }
  return 1;
}

void appendXmlEscaped(std::string& out, std::string_view s, bool attribute) {
  appendEscaped(out, s, attribute ? kXmlAttributeSpecial : kXmlTextSpecial, appendXmlEscape);
}

// <name>, what `content` appends, </name>.
template <typename Content>
void appendTagged(std::string& b, std::string_view name, Content&& content) {
  b += '<';
  b += name;
  b += '>';
  content();
  b += "</";
  b += name;
  b += '>';
}

void appendElement(std::string& b, std::string_view name, std::string_view text) {
  appendTagged(b, name, [&] { appendXmlEscaped(b, text, false); });
}

void appendTerm(std::string& b, std::string_view term, rdf::TermSplitter& split) {
  const rdf::TermParts& p = split.split(term);
  switch (p.kind) {
    case rdf::TermKind::Iri: appendElement(b, "uri", p.value); return;
    case rdf::TermKind::Blank: appendElement(b, "bnode", p.value); return;
    case rdf::TermKind::Triple: {
      rdf::TermSplitter inner;  // `split`'s parts stay valid only until its next split
      b += "<triple>";
      rdf::forEachTripleTermPart(term, [&](std::string_view name, std::string_view part) {
        appendTagged(b, name, [&] { appendTerm(b, part, inner); });
      });
      b += "</triple>";
      return;
    }
    case rdf::TermKind::Literal: break;
  }
  if (!p.language.empty()) {
    b += "<literal xml:lang=\"";
    appendXmlEscaped(b, p.language, true);
    if (!p.direction.empty()) {
      b += "\" xmlns:its=\"http://www.w3.org/2005/11/its\" its:dir=\"";
      appendXmlEscaped(b, p.direction, true);
    }
    b += "\">";
  } else if (!p.datatype.empty()) {
    b += "<literal datatype=\"";
    appendXmlEscaped(b, p.datatype, true);
    b += "\">";
  } else {
    b += "<literal>";
  }
  appendXmlEscaped(b, p.value, false);
  b += "</literal>";
}

constexpr std::string_view kPrologue =
    "<?xml version=\"1.0\"?>\n"
    "<sparql xmlns=\"http://www.w3.org/2005/sparql-results#\">\n"
    "  <head>\n";

class XmlWriter final : public ResultWriter {
 public:
  explicit XmlWriter(std::ostream& out) : out_(out) {}

  void begin(const std::vector<std::string>& variables) override {
    std::string& b = out_.str();
    b += kPrologue;
    bindingOpen_.clear();
    for (const std::string& v : variables) {
      b += "    <variable name=\"";
      appendXmlEscaped(b, v, true);
      b += "\"/>\n";
      std::string open = "      <binding name=\"";
      appendXmlEscaped(open, v, true);
      open += "\">\n        ";
      bindingOpen_.push_back(std::move(open));
    }
    b += "  </head>\n  <results>\n";
  }

  void row(std::span<const std::optional<std::string_view>> terms) override {
    std::string& b = out_.str();
    b += "    <result>\n";
    for (size_t i = 0; i < terms.size() && i < bindingOpen_.size(); ++i) {
      if (!terms[i]) continue;
      b += bindingOpen_[i];
      appendTerm(b, *terms[i], split_);
      b += "\n      </binding>\n";
    }
    b += "    </result>\n";
    out_.maybeFlush();
  }

  void end() override {
    out_.put("  </results>\n</sparql>\n");
    out_.flush();
  }

  void boolean(bool value) override {
    out_.put(kPrologue);
    out_.put(value ? "  </head>\n  <boolean>true</boolean>\n</sparql>\n"
                   : "  </head>\n  <boolean>false</boolean>\n</sparql>\n");
    out_.flush();
  }

 private:
  OutBuffer out_;
  rdf::TermSplitter split_;
  std::vector<std::string> bindingOpen_;
};

}  // namespace

std::unique_ptr<ResultWriter> makeXmlWriter(std::ostream& out) {
  return std::make_unique<XmlWriter>(out);
}

}  // namespace gsparql::results
