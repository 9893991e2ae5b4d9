#include "rdf/term.h"

#include <cstdio>

namespace gsparql::rdf {
namespace {

bool iriCharNeedsEscape(unsigned char c) {
  switch (c) {
    case '<': case '>': case '"': case '{': case '}':
    case '|': case '^': case '`': case '\\': case ' ':
      return true;
    default:
      return c < 0x20;
  }
}

void appendUchar(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04X", c);
  out += buf;
}

void appendLexicalEscape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    default: out += "\\r"; break;
  }
}

bool lexicalCharNeedsEscape(unsigned char c) { return c == '"' || c == '\\' || c == '\n' || c == '\r'; }

// Appends `text`, runs of bytes that need no escape at once: loading writes
// every term through here.
template <typename NeedsEscape, typename AppendEscape>
void appendEscaped(std::string& out, std::string_view text, NeedsEscape needsEscape, AppendEscape appendEscape) {
  size_t runStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!needsEscape(c)) continue;
    out.append(text.data() + runStart, i - runStart);
    appendEscape(out, c);
    runStart = i + 1;
  }
  out.append(text.data() + runStart, text.size() - runStart);
}

}  // namespace

void appendIri(std::string& out, std::string_view iri) {
  out += '<';
  appendEscaped(out, iri, iriCharNeedsEscape, appendUchar);
  out += '>';
}

void appendLiteral(std::string& out, std::string_view lexical, std::string_view language,
                   std::string_view datatype) {
  out += '"';
  appendEscaped(out, lexical, lexicalCharNeedsEscape, appendLexicalEscape);
  out += '"';
  if (!language.empty()) {
    out += '@';
    out += language;
  } else if (!datatype.empty() && datatype != kXsdString) {
    out += "^^";
    appendIri(out, datatype);
  }
}

std::string iriTerm(std::string_view iri) {
  std::string out;
  out.reserve(iri.size() + 2);
  appendIri(out, iri);
  return out;
}

std::string blankTerm(std::string_view label) {
  std::string out = "_:";
  out += label;
  return out;
}

std::string literalTerm(std::string_view lexical, std::string_view language,
                        std::string_view datatype) {
  std::string out;
  out.reserve(lexical.size() + language.size() + datatype.size() + 6);
  appendLiteral(out, lexical, language, datatype);
  return out;
}

std::string tripleTerm(std::string_view subject, std::string_view predicate, std::string_view object) {
  std::string out;
  out.reserve(subject.size() + predicate.size() + object.size() + 9);
  out += "<<( ";
  out += subject;
  out += ' ';
  out += predicate;
  out += ' ';
  out += object;
  out += " )>>";
  return out;
}

namespace {

// The end of the term that starts at text[at] (one past its last byte), or
// npos when none ends well there: a term of this form never holds a space
// outside a literal's quotes, and a triple term's parentheses nest.
size_t termEnd(std::string_view text, size_t at) {
  if (text.substr(at).starts_with("<<( ")) {
    size_t next = at + 4;
    for (int part = 0; part < 3; ++part) {
      next = termEnd(text, next);
      if (next == std::string_view::npos || next >= text.size() || text[next] != ' ') return std::string_view::npos;
      ++next;
    }
    return text.substr(next).starts_with(")>>") ? next + 3 : std::string_view::npos;
  }
  if (at < text.size() && text[at] == '"') {
    size_t i = at + 1;
    while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
    if (i >= text.size()) return std::string_view::npos;
    at = i + 1;  // then the tag or datatype, which hold no space
  }
  size_t space = text.find(' ', at);
  return space == std::string_view::npos ? text.size() : space;
}

}  // namespace

bool splitTripleTerm(std::string_view term, TripleTermParts* parts) {
  if (!term.starts_with("<<( ") || termEnd(term, 0) != term.size()) return false;
  size_t subjectEnd = termEnd(term, 4);
  size_t predicateEnd = termEnd(term, subjectEnd + 1);
  size_t objectEnd = termEnd(term, predicateEnd + 1);
  parts->subject = term.substr(4, subjectEnd - 4);
  parts->predicate = term.substr(subjectEnd + 1, predicateEnd - subjectEnd - 1);
  parts->object = term.substr(predicateEnd + 1, objectEnd - predicateEnd - 1);
  return true;
}

namespace {

// Where a literal's language tag starts, or npos.
size_t languageStart(std::string_view term) {
  if (term.empty() || term.front() != '"' || term.back() == '"' || term.back() == '>') return std::string_view::npos;
  size_t quote = term.rfind('"');
  return quote + 1 < term.size() && term[quote + 1] == '@' ? quote + 2 : std::string_view::npos;
}

}  // namespace

bool keyDiffersFromTerm(std::string_view term) {
  TripleTermParts parts;
  if (splitTripleTerm(term, &parts)) {
    return keyDiffersFromTerm(parts.subject) || keyDiffersFromTerm(parts.object);
  }
  size_t start = languageStart(term);
  if (start == std::string_view::npos) return false;
  for (size_t i = start; i < term.size(); ++i) {
    if (term[i] >= 'A' && term[i] <= 'Z') return true;
  }
  return false;
}

std::string termKey(std::string_view term) {
  TripleTermParts parts;
  if (splitTripleTerm(term, &parts)) return tripleTerm(termKey(parts.subject), parts.predicate, termKey(parts.object));
  std::string key(term);
  size_t start = languageStart(term);
  if (start == std::string_view::npos) return key;
  for (size_t i = start; i < key.size(); ++i) {
    if (key[i] >= 'A' && key[i] <= 'Z') key[i] = static_cast<char>(key[i] - 'A' + 'a');
  }
  return key;
}

namespace {

// The code point of the UTF-8 sequence at text[*i] (not ASCII), moving *i
// past it; U+FFFD, one byte on, where none starts there.
char32_t decodeSequence(std::string_view text, size_t* i) {
  const auto lead = static_cast<unsigned char>(text[*i]);
  size_t length = (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  char32_t c = length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07;
  for (size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(*i + k < text.size() ? text[*i + k] : 0);
    if ((next & 0xC0) != 0x80) {
      length = 0;
      break;
    }
    c = (c << 6) | (next & 0x3F);
  }
  *i += length == 0 ? 1 : length;
  return length == 0 ? 0xFFFD : c;
}

}  // namespace

std::u32string decodeUtf8(std::string_view text, std::vector<size_t>* offsets) {
  std::u32string out(text.size(), 0);
  size_t decoded = 0;
  for (size_t i = 0; i < text.size();) {
    if (offsets != nullptr) offsets->push_back(i);
    const auto byte = static_cast<unsigned char>(text[i]);
    out[decoded++] = byte < 0x80 ? text[i++] : decodeSequence(text, &i);
  }
  if (offsets != nullptr) offsets->push_back(text.size());
  out.resize(decoded);
  return out;
}

void appendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

TermKind termKind(std::string_view term) {
  if (term.starts_with("<<(")) return TermKind::Triple;
  if (!term.empty() && term.front() == '<') return TermKind::Iri;
  if (term.starts_with("_:")) return TermKind::Blank;
  return TermKind::Literal;
}

}  // namespace gsparql::rdf
