#include "golden.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "rdf/term.h"
#include "rdf/term_parts.h"
#include "support/files.h"

namespace gsparql::results::test {

std::string readFile(const std::string& relative) {
  return gsparql::test::readText(std::filesystem::path(GSPARQL_RESULTS_TEST_DATA) / relative);
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

void checkSameLines(const std::string& actual, const std::string& expected) {
  auto a = splitLines(actual, "\n");
  auto e = splitLines(expected, "\n");
  CHECK(a.size() == e.size());
  for (size_t i = 0; i < std::min(a.size(), e.size()); ++i) {
    INFO("line " << i + 1);
    CHECK(a[i] == e[i]);
  }
  CHECK(actual == expected);
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
