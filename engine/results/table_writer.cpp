// A table for terminals:
//   ┌──────────────────┬──────┐
//   │ ?s               │ ?o   │
//   ├──────────────────┼──────┤
//   │ <http://ex/a>    │ 42   │
//   │ <http://ex/b>    │      │
//   └──────────────────┴──────┘
//   2 rows
// Cells show terms as the TSV writer does (Turtle form, bare numbers), with
// every other control character written \uXXXX so that nothing in the data
// can move the cursor or change colours. The first `sizingRows` rows are
// buffered to choose the column widths (capped at `maxWidth`; longer cells end
// in "…"); later rows stream out with those widths.
#include "engine/results/writers.h"

namespace gsparql::results {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …
constexpr std::string_view kHorizontal = "\xE2\x94\x80";  // ─
constexpr std::string_view kVertical = "\xE2\x94\x82";    // │

bool isContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Appends `term` for display: Turtle form (IRIs as prefixed names where the
// query declares their namespace) with control characters escaped.
void appendCell(std::string& out, std::string& scratch, std::string_view term, const Prefixes& prefixes) {
  scratch.clear();
  if (auto name = prefixedName(term, prefixes)) {
    scratch = std::move(*name);
  } else {
    appendTsvTerm(scratch, term);
  }
  static constexpr char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < scratch.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(scratch[i]);
    unsigned code = 0x10000;  // none
    if (c < 0x20 || c == 0x7F) {
      code = c;
    } else if (c == 0xC2 && i + 1 < scratch.size() &&
               static_cast<unsigned char>(scratch[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(scratch[i + 1]) <= 0x9F) {
      code = static_cast<unsigned char>(scratch[++i]);  // C1 controls
    }
    if (code == 0x10000) {
      out += static_cast<char>(c);
    } else {
      char u[6] = {'\\', 'u', '0', '0', hex[code >> 4], hex[code & 15]};
      out.append(u, 6);
    }
  }
}

// Appends `text` padded or cut to exactly `width` display columns.
void appendFitted(std::string& out, std::string_view text, size_t width) {
  size_t w = displayWidth(text);
  if (w <= width) {
    out += text;
    out.append(width - w, ' ');
    return;
  }
  // Keep width - 1 code points, then the ellipsis.
  size_t keep = width == 0 ? 0 : width - 1, seen = 0, i = 0;
  for (; i < text.size(); ++i) {
    if (!isContinuation(static_cast<unsigned char>(text[i]))) {
      if (seen == keep) break;
      ++seen;
    }
  }
  out.append(text.data(), i);
  if (width > 0) out += kEllipsis;
}

class TableWriter final : public ResultWriter {
 public:
  TableWriter(std::ostream& out, TableOptions options) : out_(out), options_(options) {
    if (options_.maxWidth < 1) options_.maxWidth = 1;
  }

  void begin(const std::vector<std::string>& variables) override {
    headers_.clear();
    for (const std::string& v : variables) headers_.push_back("?" + v);
    widths_.assign(headers_.size(), 0);
    for (size_t i = 0; i < headers_.size(); ++i)
      widths_[i] = std::min(displayWidth(headers_[i]), options_.maxWidth);
    cells_.clear();
    cellEnds_.clear();
    rows_ = 0;
    streaming_ = false;
  }

  void row(std::span<const std::optional<std::string_view>> terms) override {
    ++rows_;
    if (streaming_) {
      std::string& b = out_.str();
      b += kVertical;
      for (size_t i = 0; i < widths_.size(); ++i) {
        cell_.clear();
        if (i < terms.size() && terms[i]) appendCell(cell_, scratch_, *terms[i], options_.prefixes);
        b += ' ';
        appendFitted(b, cell_, widths_[i]);
        b += ' ';
        b += kVertical;
      }
      b += '\n';
      out_.maybeFlush();
      return;
    }
    for (size_t i = 0; i < widths_.size(); ++i) {
      size_t start = cells_.size();
      if (i < terms.size() && terms[i]) appendCell(cells_, scratch_, *terms[i], options_.prefixes);
      cellEnds_.push_back(cells_.size());
      widths_[i] = std::max(widths_[i], std::min(displayWidth(std::string_view(cells_).substr(start)),
                                                 options_.maxWidth));
    }
    if (rows_ >= options_.sizingRows) startStreaming();
  }

  void end() override {
    if (!streaming_) startStreaming();
    if (!widths_.empty()) rule("\xE2\x94\x94", "\xE2\x94\xB4", "\xE2\x94\x98");  // └ ┴ ┘
    std::string& b = out_.str();
    b += std::to_string(rows_);
    b += rows_ == 1 ? " row\n" : " rows\n";
    out_.flush();
  }

  void boolean(bool value) override {
    out_.put(value ? "true\n" : "false\n");
    out_.flush();
  }

 private:
  void rule(std::string_view left, std::string_view middle, std::string_view right) {
    std::string& b = out_.str();
    b += left;
    for (size_t i = 0; i < widths_.size(); ++i) {
      if (i) b += middle;
      for (size_t k = 0; k < widths_[i] + 2; ++k) b += kHorizontal;
    }
    b += right;
    b += '\n';
  }

  void line(const std::vector<std::string_view>& cells) {
    std::string& b = out_.str();
    b += kVertical;
    for (size_t i = 0; i < widths_.size(); ++i) {
      b += ' ';
      appendFitted(b, cells[i], widths_[i]);
      b += ' ';
      b += kVertical;
    }
    b += '\n';
  }

  // Writes the header and the buffered rows; later rows stream.
  void startStreaming() {
    streaming_ = true;
    if (widths_.empty()) return;  // no variables: only the row count
    rule("\xE2\x94\x8C", "\xE2\x94\xAC", "\xE2\x94\x90");  // ┌ ┬ ┐
    std::vector<std::string_view> cells(headers_.begin(), headers_.end());
    line(cells);
    rule("\xE2\x94\x9C", "\xE2\x94\xBC", "\xE2\x94\xA4");  // ├ ┼ ┤
    size_t start = 0, k = 0;
    while (k < cellEnds_.size()) {
      for (size_t i = 0; i < widths_.size(); ++i, ++k) {
        cells[i] = std::string_view(cells_).substr(start, cellEnds_[k] - start);
        start = cellEnds_[k];
      }
      line(cells);
      out_.maybeFlush();
    }
    cells_.clear();
    cells_.shrink_to_fit();
    cellEnds_.clear();
    cellEnds_.shrink_to_fit();
  }

  OutBuffer out_;
  TableOptions options_;
  std::vector<std::string> headers_;
  std::vector<size_t> widths_;
  std::string cells_;              // buffered cells, back to back
  std::vector<size_t> cellEnds_;   // end offset of each buffered cell
  std::string cell_, scratch_;
  size_t rows_ = 0;
  bool streaming_ = false;
};

}  // namespace

size_t displayWidth(std::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) n += !isContinuation(static_cast<unsigned char>(c));
  return n;
}

std::unique_ptr<ResultWriter> makeTableWriter(std::ostream& out, TableOptions options) {
  return std::make_unique<TableWriter>(out, options);
}

}  // namespace gsparql::results
