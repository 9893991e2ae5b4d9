// SPARQL 1.1 Query Results TSV, as Apache Jena 4.5 writes it.
//
// A term in rdf/term.h form is already almost what Jena writes: both use
// N-Triples syntax with \" \\ \n \r escapes inside literals. The differences:
//  - Jena also escapes TAB as \t and FORM FEED as \f (all other characters,
//    control characters included, are written as they are);
//  - xsd:integer, xsd:decimal, xsd:double and xsd:boolean literals whose
//    lexical form is a Turtle number/boolean token are written bare (42, 3.50,
//    1.0e0, true), exactly as stored, without canonicalisation.
// So a row costs one scan per term and no copies beyond the output buffer.
#include <cstring>

#include "engine/results/writers.h"
#include "rdf/term.h"

namespace gsparql::results {
namespace {

constexpr ByteSet kTsvSpecial(false, {'\t', '\f'});
constexpr std::string_view kDtPrefix = "^^<http://www.w3.org/2001/XMLSchema#";

bool isDigit(char c) { return c >= '0' && c <= '9'; }

size_t skipSign(std::string_view s, size_t i) {
  return i < s.size() && (s[i] == '+' || s[i] == '-') ? i + 1 : i;
}
size_t skipDigits(std::string_view s, size_t i) {
  while (i < s.size() && isDigit(s[i])) ++i;
  return i;
}

// Turtle INTEGER: [+-]? [0-9]+
bool turtleInteger(std::string_view s) {
  size_t i = skipSign(s, 0);
  size_t j = skipDigits(s, i);
  return j > i && j == s.size();
}

// Turtle DECIMAL: [+-]? [0-9]* '.' [0-9]+
bool turtleDecimal(std::string_view s) {
  size_t i = skipDigits(s, skipSign(s, 0));
  if (i >= s.size() || s[i] != '.') return false;
  size_t j = skipDigits(s, i + 1);
  return j > i + 1 && j == s.size();
}

// Turtle DOUBLE: [+-]? ([0-9]+ '.' [0-9]* EXPONENT | '.' [0-9]+ EXPONENT | [0-9]+ EXPONENT)
// EXPONENT: [eE] [+-]? [0-9]+
bool turtleDouble(std::string_view s) {
  size_t i = skipSign(s, 0);
  size_t j = skipDigits(s, i);
  bool mantissaDigits = j > i;
  if (j < s.size() && s[j] == '.') {
    size_t k = skipDigits(s, j + 1);
    mantissaDigits = mantissaDigits || k > j + 1;
    j = k;
  }
  if (!mantissaDigits || j >= s.size() || (s[j] != 'e' && s[j] != 'E')) return false;
  size_t e = skipSign(s, j + 1);
  size_t end = skipDigits(s, e);
  return end > e && end == s.size();
}

bool abbreviatesLocal(std::string_view lexical, std::string_view localName) {
  if (localName == "integer") return turtleInteger(lexical);
  if (localName == "decimal") return turtleDecimal(lexical);
  if (localName == "double") return turtleDouble(lexical);
  if (localName == "boolean") return lexical == "true" || lexical == "false";
  return false;
}

class TsvWriter final : public ResultWriter {
 public:
  explicit TsvWriter(std::ostream& out) : out_(out) {}

  void begin(const std::vector<std::string>& variables) override {
    for (size_t i = 0; i < variables.size(); ++i) {
      if (i) out_.put('\t');
      out_.put('?');
      out_.put(variables[i]);
    }
    out_.put('\n');
  }

  void row(std::span<const std::optional<std::string_view>> terms) override {
    for (size_t i = 0; i < terms.size(); ++i) {
      if (i) out_.put('\t');
      if (terms[i]) appendTsvTerm(out_.str(), *terms[i]);
    }
    out_.put('\n');
    out_.maybeFlush();
  }

  void end() override { out_.flush(); }

  void boolean(bool value) override {
    out_.put(value ? "?_askResult\ntrue\n" : "?_askResult\nfalse\n");
    out_.flush();
  }

 private:
  OutBuffer out_;
};

}  // namespace

void appendTsvTerm(std::string& buf, std::string_view term) {
  if (term.empty() || term.front() != '"') {  // IRI or blank node: as stored
    buf += term;
    return;
  }
  // Typed literal with an xsd datatype that may abbreviate: "lex"^^<xsd:...>
  if (term.back() == '>') {
    size_t close = term.rfind('"');
    if (close > 0 && close != std::string_view::npos) {
      std::string_view rest = term.substr(close + 1);
      if (rest.starts_with(kDtPrefix)) {
        std::string_view local = rest.substr(kDtPrefix.size(), rest.size() - kDtPrefix.size() - 1);
        std::string_view lexical = term.substr(1, close - 1);
        if (abbreviatesLocal(lexical, local)) {
          buf += lexical;
          return;
        }
      }
    }
  }
  // Everything else: as stored, with TAB and FF escaped.
  appendEscaped(buf, term, kTsvSpecial, [](unsigned char c, std::string_view, size_t, std::string& out) {
    out += c == '\t' ? "\\t" : "\\f";
    return size_t{1};
  });
}

bool abbreviatesAsTurtle(std::string_view lexical, std::string_view datatype) {
  constexpr std::string_view xsd = rdf::kXsd;
  if (!datatype.starts_with(xsd)) return false;
  return abbreviatesLocal(lexical, datatype.substr(xsd.size()));
}

std::unique_ptr<ResultWriter> makeTsvWriter(std::ostream& out) {
  return std::make_unique<TsvWriter>(out);
}

}  // namespace gsparql::results
