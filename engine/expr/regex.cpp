#include "engine/expr/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace gsparql::engine::expr {

struct Regex::Compiled {
  pcre2_code* code = nullptr;
  ~Compiled() { pcre2_code_free(code); }
};

namespace {

// XPath flags: s (dot matches newlines), m (multi-line), i (case-insensitive),
// x (whitespace in the pattern ignored), q (the pattern is a plain string).
std::optional<uint32_t> compileOptions(std::string_view flags) {
  uint32_t options = PCRE2_UTF | PCRE2_UCP;
  for (char f : flags) {
    switch (f) {
      case 's': options |= PCRE2_DOTALL; break;
      case 'm': options |= PCRE2_MULTILINE; break;
      case 'i': options |= PCRE2_CASELESS; break;
      case 'x': options |= PCRE2_EXTENDED; break;
      case 'q': options |= PCRE2_LITERAL; break;
      default: return std::nullopt;
    }
  }
  // PCRE2_LITERAL admits only a few other options.
  if (options & PCRE2_LITERAL) options &= PCRE2_LITERAL | PCRE2_UTF | PCRE2_CASELESS;
  return options;
}

// Match data for one call; `code` decides its size.
struct MatchData {
  explicit MatchData(const pcre2_code* code) : data(pcre2_match_data_create_from_pattern(code, nullptr)) {}
  ~MatchData() { pcre2_match_data_free(data); }
  pcre2_match_data* data;
};

int match(const pcre2_code* code, std::string_view text, size_t offset, MatchData& m) {
  return pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), offset, 0, m.data, nullptr);
}

// Appends the XPath replacement string with $N referring to the match's groups.
bool appendReplacement(std::string& out, std::string_view replacement, std::string_view text,
                       const PCRE2_SIZE* ovector, uint32_t groups) {
  for (size_t i = 0; i < replacement.size(); ++i) {
    char c = replacement[i];
    if (c == '\\') {
      if (i + 1 == replacement.size() || (replacement[i + 1] != '\\' && replacement[i + 1] != '$')) return false;
      out += replacement[++i];
      continue;
    }
    if (c != '$') {
      out += c;
      continue;
    }
    if (i + 1 == replacement.size() || !std::isdigit(static_cast<unsigned char>(replacement[i + 1]))) return false;
    // As many digits as still name a group (XPath fn:replace).
    uint32_t group = replacement[++i] - '0';
    while (i + 1 < replacement.size() && std::isdigit(static_cast<unsigned char>(replacement[i + 1])) &&
           group * 10 + (replacement[i + 1] - '0') < groups) {
      group = group * 10 + (replacement[++i] - '0');
    }
    if (group < groups && ovector[2 * group] != PCRE2_UNSET) {
      out.append(text.substr(ovector[2 * group], ovector[2 * group + 1] - ovector[2 * group]));
    }
  }
  return true;
}

}  // namespace

Regex::Regex(std::unique_ptr<Compiled> compiled) : compiled_(std::move(compiled)) {}
Regex::~Regex() = default;

std::shared_ptr<const Regex> Regex::compile(std::string_view pattern, std::string_view flags) {
  auto options = compileOptions(flags);
  if (!options) return nullptr;
  int error = 0;
  PCRE2_SIZE errorOffset = 0;
  auto compiled = std::make_unique<Compiled>();
  compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), *options, &error,
                                 &errorOffset, nullptr);
  if (!compiled->code) return nullptr;
  return std::shared_ptr<const Regex>(new Regex(std::move(compiled)));
}

bool Regex::matches(std::string_view text) const {
  MatchData m(compiled_->code);
  return match(compiled_->code, text, 0, m) >= 0;
}

std::optional<std::string> Regex::replace(std::string_view text, std::string_view replacement) const {
  MatchData m(compiled_->code);
  if (match(compiled_->code, "", 0, m) >= 0) return std::nullopt;  // XPath err:FORX0003
  std::string out;
  size_t done = 0;
  while (done <= text.size()) {
    int groups = match(compiled_->code, text, done, m);
    if (groups < 0) break;
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(m.data);
    if (ovector[0] == ovector[1]) return std::nullopt;  // an empty match (lookarounds, \b)
    out.append(text.substr(done, ovector[0] - done));
    if (!appendReplacement(out, replacement, text, ovector, pcre2_get_ovector_count(m.data))) return std::nullopt;
    done = ovector[1];
  }
  out.append(text.substr(std::min(done, text.size())));
  return out;
}

}  // namespace gsparql::engine::expr
