// SPARQL 1.1 Query Results CSV: plain values (IRI text, lexical forms,
// _:label), no datatypes or language tags; fields quoted as RFC 4180 says
// (when they hold '"', ',', LF or CR; quotes doubled); CRLF line ends.
// Like Jena 4.5, an empty literal is written "" so that it differs from an
// unbound value (an empty field).
#include <cstring>

#include "engine/results/writers.h"
#include "rdf/term_parts.h"

namespace gsparql::results {
namespace {

constexpr ByteSet kNeedsQuotes(false, {'"', ',', '\n', '\r'});
constexpr ByteSet kQuote(false, {'"'});

class CsvWriter final : public ResultWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}

  void begin(const std::vector<std::string>& variables) override {
    for (size_t i = 0; i < variables.size(); ++i) {
      if (i) out_.put(',');
      field(variables[i], false);
    }
    out_.put("\r\n");
  }

  void row(std::span<const std::optional<std::string_view>> terms) override {
    for (size_t i = 0; i < terms.size(); ++i) {
      if (i) out_.put(',');
      if (!terms[i]) continue;
      const rdf::TermParts& p = split_.split(*terms[i]);
      if (p.kind == rdf::TermKind::Blank) {
        out_.put("_:");
        out_.put(p.value);
      } else {
        field(p.value, p.kind == rdf::TermKind::Literal);
      }
    }
    out_.put("\r\n");
    out_.maybeFlush();
  }

  void end() override { out_.flush(); }

  void boolean(bool value) override {
    out_.put(value ? "_askResult\r\ntrue\r\n" : "_askResult\r\nfalse\r\n");
    out_.flush();
  }

 private:
  void field(std::string_view value, bool quoteEmpty) {
    if (!(quoteEmpty && value.empty()) && kNeedsQuotes.findIn(value) == value.size()) {
      out_.put(value);
      return;
    }
    out_.put('"');
    appendEscaped(out_.str(), value, kQuote, [](unsigned char, std::string_view, size_t, std::string& out) {
      out += "\"\"";
      return size_t{1};
    });
    out_.put('"');
  }

  OutBuffer out_;
  rdf::TermSplitter split_;
};

}  // namespace

std::unique_ptr<ResultWriter> makeCsvWriter(std::ostream& out) {
  return std::make_unique<CsvWriter>(out);
}

}  // namespace gsparql::results
