#include "golden.h"
#include "rdf/term.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "engine/results/term_parts.h"

namespace gsparql::results::test {

std::string readFile(const std::string& relative) {
  std::string path = std::string(GSPARQL_RESULTS_TEST_DATA) + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> splitLines(std::string_view text, std::string_view eol) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t next = text.find(eol, pos);
    if (next == std::string_view::npos) {
      lines.emplace_back(text.substr(pos));
      break;
    }
    lines.emplace_back(text.substr(pos, next - pos));
    pos = next + eol.size();
  }
  return lines;
}

Solutions corpusRows(const std::string& dir, bool withNote) {
  constexpr std::string_view xsdString = "^^<http://www.w3.org/2001/XMLSchema#string>";
  Solutions out;
  out.variables = withNote ? std::vector<std::string>{"s", "o", "note"}
                           : std::vector<std::string>{"s", "o"};
  for (const std::string& line : splitLines(readFile(dir + "/data.nt"), "\n")) {
    // "<s> <p> object ." - subject and predicate hold no spaces.
    size_t a = line.find(' ');
    size_t b = line.find(' ', a + 1);
    if (a == std::string::npos || b == std::string::npos || !line.ends_with(" ."))
      throw std::runtime_error("bad data line: " + line);
    std::string s = line.substr(0, a), p = line.substr(a + 1, b - a - 1);
    std::string o = line.substr(b + 1, line.size() - b - 3);
    if (o.ends_with(xsdString)) o.resize(o.size() - xsdString.size());
    if (out.rows.empty() || *out.rows.back()[0] != s) {
      out.rows.push_back(Row(out.variables.size()));
      out.rows.back()[0] = s;
    }
    if (p == "<http://ex/p>") out.rows.back()[1] = o;
    else if (p == "<http://ex/note>" && withNote) out.rows.back()[2] = o;
  }
  return out;
}

std::string render(Format format, const Solutions& solutions) {
  std::ostringstream s;
  auto writer = makeResultWriter(format, s);
  writer->begin(solutions.variables);
  std::vector<std::optional<std::string_view>> terms;
  for (const Row& row : solutions.rows) {
    terms.assign(row.begin(), row.end());
    writer->row(terms);
  }
  writer->end();
  return s.str();
}

std::string renderAsk(Format format, bool value) {
  std::ostringstream s;
  makeResultWriter(format, s)->boolean(value);
  return s.str();
}

namespace {

class Renamer {
 public:
  std::string operator()(std::string_view label) {
    auto [it, added] = names_.emplace(std::string(label), "");
    if (added) it->second = "b" + std::to_string(names_.size() - 1);
    return it->second;
  }

 private:
  std::map<std::string, std::string, std::less<>> names_;
};

}  // namespace

std::string renameBlankFields(std::string_view text, char separator) {
  Renamer rename;
  std::string out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = pos;
    while (end < text.size() && text[end] != separator && text[end] != '\n' && text[end] != '\r') ++end;
    std::string_view field = text.substr(pos, end - pos);
    if (field.starts_with("_:")) {
      out += "_:";
      out += rename(field.substr(2));
    } else {
      out += field;
    }
    if (end < text.size()) out += text[end];
    pos = end + 1;
  }
  return out;
}

std::string renameXmlBnodes(std::string_view xml) {
  Renamer rename;
  std::string out;
  size_t pos = 0;
  for (;;) {
    size_t open = xml.find("<bnode>", pos);
    if (open == std::string_view::npos) break;
    size_t start = open + 7;
    size_t close = xml.find("</bnode>", start);
    out += xml.substr(pos, start - pos);
    out += rename(xml.substr(start, close - start));
    pos = close;
  }
  out += xml.substr(pos);
  return out;
}

namespace {

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}

  Json document() {
    Json v = value();
    space();
    if (i_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i_));
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    space();
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else fail("bad hex digit");
    }
    return v;
  }
  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (!literal("\\u")) fail("lone high surrogate");
            unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          rdf::appendUtf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }
  Json value() {
    space();
    if (i_ >= s_.size()) fail("expected a value");
    Json v;
    char c = s_[i_];
    if (c == '{') {
      v.kind = Json::Kind::Object;
      ++i_;
      space();
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        return v;
      }
      for (;;) {
        std::string key = string();
        expect(':');
        v.members.emplace_back(std::move(key), value());
        space();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        expect('}');
        break;
      }
      std::sort(v.members.begin(), v.members.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t k = 1; k < v.members.size(); ++k)
        if (v.members[k].first == v.members[k - 1].first) fail("duplicate key " + v.members[k].first);
    } else if (c == '[') {
      v.kind = Json::Kind::Array;
      ++i_;
      space();
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return v;
      }
      for (;;) {
        v.items.push_back(value());
        space();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        expect(']');
        break;
      }
    } else if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
    } else if (literal("true")) {
      v.kind = Json::Kind::Bool;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = Json::Kind::Bool;
    } else if (literal("null")) {
      v.kind = Json::Kind::Null;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Json::Kind::Number;
      size_t start = i_;
      while (i_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[i_]) != std::string_view::npos) ++i_;
      v.text = std::string(s_.substr(start, i_ - start));
    } else {
      fail("unexpected character");
    }
    return v;
  }

  std::string_view s_;
  size_t i_ = 0;
};

const Json* member(const Json& object, std::string_view key) {
  for (const auto& [k, v] : object.members)
    if (k == key) return &v;
  return nullptr;
}

void appendJsonString(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

void write(std::string& out, const Json& v) {
  switch (v.kind) {
    case Json::Kind::Null: out += "null"; break;
    case Json::Kind::Bool: out += v.boolean ? "true" : "false"; break;
    case Json::Kind::Number: out += v.text; break;
    case Json::Kind::String: appendJsonString(out, v.text); break;
    case Json::Kind::Array:
      out += '[';
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) out += ',';
        write(out, v.items[k]);
      }
      out += ']';
      break;
    case Json::Kind::Object:
      out += '{';
      for (size_t k = 0; k < v.members.size(); ++k) {
        if (k) out += ',';
        appendJsonString(out, v.members[k].first);
        out += ':';
        write(out, v.members[k].second);
      }
      out += '}';
      break;
  }
}

}  // namespace

Json parseJson(std::string_view text) { return JsonParser(text).document(); }

void renameJsonBnodes(Json& document) {
  Renamer rename;
  const Json* results = member(document, "results");
  if (!results) return;
  for (auto& [key, value] : document.members) {
    if (key != "results") continue;
    for (auto& [rkey, bindings] : value.members) {
      if (rkey != "bindings") continue;
      for (Json& solution : bindings.items)
        for (auto& [var, term] : solution.members) {
          const Json* type = member(term, "type");
          if (!type || type->text != "bnode") continue;
          for (auto& [tkey, tvalue] : term.members)
            if (tkey == "value") tvalue.text = rename(tvalue.text);
        }
    }
  }
}

std::string compactJson(const Json& value) {
  std::string out;
  write(out, value);
  return out;
}

}  // namespace gsparql::results::test
