// SPARQL 1.1 Query Results JSON. One solution per line:
//   {"head":{"vars":["s","o"]},"results":{"bindings":[
//   {"s":{"type":"uri","value":"http://ex/a"},"o":{"type":"literal","value":"x","xml:lang":"en"}},
//   ...
//   ]}}
// SPARQL 1.2: a triple term is {"type":"triple","value":{"subject":...,
// "predicate":...,"object":...}}, a base direction "its:dir":"rtl".
// Strings escape '"', '\', the control characters (short forms where JSON has
// them), U+007F, U+2028 and U+2029; other characters are written as UTF-8.
#include "engine/results/writers.h"
#include "rdf/term_parts.h"

namespace gsparql::results {

namespace {


constexpr ByteSet kJsonSpecial(true, {'"', '\\', 0x7F, 0xE2});

// Appends the escape of s[i] (in kJsonSpecial); returns the bytes consumed.
size_t appendJsonEscape(unsigned char c, std::string_view s, size_t i, std::string& out) {
  switch (c) {
    case '"': out += "\\\""; return 1;
    case '\\': out += "\\\\"; return 1;
    case '\n': out += "\\n"; return 1;
    case '\r': out += "\\r"; return 1;
    case '\t': out += "\\t"; return 1;
    case '\b': out += "\\b"; return 1;
    case '\f': out += "\\f"; return 1;
    case 0xE2:  // U+2028 / U+2029 (E2 80 A8 / E2 80 A9) end lines in JavaScript; other E2 sequences stay
      if (s.size() - i >= 3 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
          (static_cast<unsigned char>(s[i + 2]) == 0xA8 || static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
        out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
        return 3;
      }
      out += static_cast<char>(c);
      return 1;
    default: {
      const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(u, 6);
      return 1;
    }
  }
}

void appendJsonEscaped(std::string& out, std::string_view s) { appendEscaped(out, s, kJsonSpecial, appendJsonEscape); }

void appendMember(std::string& b, std::string_view name, std::string_view value) {
  b += ",\"";
  b += name;
  b += "\":\"";
  appendJsonEscaped(b, value);
  b += '"';
}

// The object of one term, after its opening brace.
void appendTermObject(std::string& b, std::string_view term, rdf::TermSplitter& split) {
  const rdf::TermParts& p = split.split(term);
  switch (p.kind) {
    case rdf::TermKind::Iri: b += "\"type\":\"uri\",\"value\":\""; break;
    case rdf::TermKind::Blank: b += "\"type\":\"bnode\",\"value\":\""; break;
    case rdf::TermKind::Literal: b += "\"type\":\"literal\",\"value\":\""; break;
    case rdf::TermKind::Triple: {
      rdf::TermSplitter inner;  // `split`'s parts stay valid only until its next split
      b += "\"type\":\"triple\",\"value\":{";
      rdf::forEachTripleTermPart(term, [&](std::string_view name, std::string_view part) {
        if (name != "subject") b += ',';
        b += '"';
        b += name;
        b += "\":{";
        appendTermObject(b, part, inner);
        b += '}';
      });
      b += '}';
      return;
    }
  }
  appendJsonEscaped(b, p.value);
  b += '"';
  if (!p.language.empty()) {
    appendMember(b, "xml:lang", p.language);
    if (!p.direction.empty()) appendMember(b, "its:dir", p.direction);
  } else if (!p.datatype.empty()) {
    appendMember(b, "datatype", p.datatype);
  }
}

class JsonWriter final : public ResultWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin(const std::vector<std::string>& variables) override {
    names_.clear();
    std::string& b = out_.str();
    b += "{\"head\":{\"vars\":[";
    for (size_t i = 0; i < variables.size(); ++i) {
      if (i) b += ',';
      b += '"';
      appendJsonEscaped(b, variables[i]);
      b += '"';
      // The member name prefix of each binding, built once.
      std::string name = "\"";
      appendJsonEscaped(name, variables[i]);
      name += "\":{";
      names_.push_back(std::move(name));
    }
    b += "]},\"results\":{\"bindings\":[";
    first_ = true;
  }

  void row(std::span<const std::optional<std::string_view>> terms) override {
    std::string& b = out_.str();
    b += first_ ? "\n{" : ",\n{";
    first_ = false;
    bool firstBinding = true;
    for (size_t i = 0; i < terms.size() && i < names_.size(); ++i) {
      if (!terms[i]) continue;
      if (!firstBinding) b += ',';
      firstBinding = false;
      b += names_[i];
      appendTermObject(b, *terms[i], split_);
      b += '}';
    }
    b += '}';
    out_.maybeFlush();
  }

  void end() override {
    out_.put(first_ ? "]}}\n" : "\n]}}\n");
    out_.flush();
  }

  void boolean(bool value) override {
    out_.put(value ? "{\"head\":{},\"boolean\":true}\n" : "{\"head\":{},\"boolean\":false}\n");
    out_.flush();
  }

 private:
  OutBuffer out_;
  rdf::TermSplitter split_;
  std::vector<std::string> names_;
  bool first_ = true;
};

}  // namespace

std::unique_ptr<ResultWriter> makeJsonWriter(std::ostream& out) {
  return std::make_unique<JsonWriter>(out);
}

}  // namespace gsparql::results
