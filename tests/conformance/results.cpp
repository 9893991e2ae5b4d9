#include "results.h"

#include "engine/service/sparql_results.h"
#include "loaders/rdf_reader.h"
#include "rdf/term.h"
#include "rdf/term_parts.h"
#include "support/files.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "isomorphism.h"
#include "manifest.h"

namespace gsparql::conformance {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

unsigned long hexValue(std::string_view digits) {
  unsigned long v = 0;
  for (char c : digits) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) fail("bad hex escape");
    v = v * 16 + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                                                                                       : std::tolower(c) - 'a' + 10);
  }
  return v;
}

// The writers' escape decoding: expected files use the N-Triples/Turtle escapes.
std::string unescape(std::string_view s) {
  std::string out;
  rdf::appendUnescaped(out, s);
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}


// ---- a minimal XML reader: elements, attributes, text, CDATA, entities ----

struct XmlNode {
  std::string name;  // without namespace prefix
  std::map<std::string, std::string> attrs;
  std::vector<XmlNode> children;
  std::string text;  // the element's own character data, concatenated

  const XmlNode* child(const std::string& n) const {
    for (const auto& c : children)
      if (c.name == n) return &c;
    return nullptr;
  }
  std::optional<std::string> attr(const std::string& n) const {
    auto it = attrs.find(n);
    if (it == attrs.end()) return std::nullopt;
    return it->second;
  }
};

class XmlReader {
 public:
  explicit XmlReader(std::string_view s) : s_(s) {}

  XmlNode document() {
    for (;;) {
      skipSpace();
      if (startsWith("<?")) {
        skipPast("?>");
      } else if (startsWith("<!--")) {
        skipPast("-->");
      } else if (startsWith("<!")) {
        skipPast(">");
      } else {
        break;
      }
    }
    if (!startsWith("<")) fail("XML: no root element");
    return element();
  }

 private:
  bool startsWith(std::string_view p) const { return s_.substr(i_, p.size()) == p; }
  void skipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void skipPast(std::string_view end) {
    auto at = s_.find(end, i_);
    if (at == std::string_view::npos) fail("XML: unterminated construct");
    i_ = at + end.size();
  }
  std::string name() {
    size_t b = i_;
    while (i_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[i_])) && s_[i_] != '>' && s_[i_] != '/' &&
           s_[i_] != '=')
      ++i_;
    if (b == i_) fail("XML: expected a name");
    return std::string(s_.substr(b, i_ - b));
  }
  static std::string local(const std::string& qname) {
    auto colon = qname.find(':');
    return colon == std::string::npos ? qname : qname.substr(colon + 1);
  }
  static std::string decode(std::string_view t) {
    std::string out;
    for (size_t k = 0; k < t.size(); ++k) {
      if (t[k] != '&') {
        out += t[k];
        continue;
      }
      auto semi = t.find(';', k);
      if (semi == std::string_view::npos) fail("XML: bad entity");
      std::string_view ent = t.substr(k + 1, semi - k - 1);
      if (ent == "lt") out += '<';
      else if (ent == "gt") out += '>';
      else if (ent == "amp") out += '&';
      else if (ent == "quot") out += '"';
      else if (ent == "apos") out += '\'';
      else if (ent.size() > 2 && ent[0] == '#' && (ent[1] == 'x' || ent[1] == 'X')) rdf::appendUtf8(out, hexValue(ent.substr(2)));
      else if (ent.size() > 1 && ent[0] == '#') rdf::appendUtf8(out, std::stoul(std::string(ent.substr(1))));
      else fail("XML: unknown entity &" + std::string(ent) + ";");
      k = semi;
    }
    return out;
  }
  XmlNode element() {
    ++i_;  // '<'
    XmlNode node;
    node.name = local(name());
    for (;;) {
      skipSpace();
      if (i_ >= s_.size()) fail("XML: unterminated tag");
      if (startsWith("/>")) {
        i_ += 2;
        return node;
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      std::string attr = name();
      skipSpace();
      if (i_ >= s_.size() || s_[i_] != '=') fail("XML: expected '=' after " + attr);
      ++i_;
      skipSpace();
      if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) fail("XML: expected a quoted value");
      char q = s_[i_++];
      auto end = s_.find(q, i_);
      if (end == std::string_view::npos) fail("XML: unterminated attribute");
      node.attrs[attr] = decode(s_.substr(i_, end - i_));
      i_ = end + 1;
    }
    for (;;) {
      if (i_ >= s_.size()) fail("XML: unterminated element " + node.name);
      if (startsWith("</")) {
        i_ += 2;
        std::string closing = local(name());
        if (closing != node.name) fail("XML: </" + closing + "> closes <" + node.name + ">");
        skipPast(">");
        return node;
      }
      if (startsWith("<!--")) {
        skipPast("-->");
      } else if (startsWith("<![CDATA[")) {
        i_ += 9;
        auto end = s_.find("]]>", i_);
        if (end == std::string_view::npos) fail("XML: unterminated CDATA");
        node.text += s_.substr(i_, end - i_);
        i_ = end + 3;
      } else if (startsWith("<?")) {
        skipPast("?>");
      } else if (s_[i_] == '<') {
        node.children.push_back(element());
      } else {
        auto end = s_.find('<', i_);
        if (end == std::string_view::npos) end = s_.size();
        node.text += decode(s_.substr(i_, end - i_));
        i_ = end;
      }
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};


bool isNumberToken(const std::string& t, bool& hasDot, bool& hasExp) {
  hasDot = hasExp = false;
  size_t i = 0, digits = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else if (c == '.' && !hasDot && !hasExp) {
      hasDot = true;
    } else if ((c == 'e' || c == 'E') && !hasExp && digits > 0) {
      hasExp = true;
      if (i + 1 < t.size() && (t[i + 1] == '+' || t[i + 1] == '-')) ++i;
    } else {
      return false;
    }
  }
  return digits > 0;
}

// Decimal digits without sign noise, leading or trailing zeros: "02.50" and
// "2.5" give "2.5", "-0.0" gives "0"; nullopt when not a decimal numeral.
std::optional<std::string> decimalValue(std::string_view lexical) {
  bool negative = false;
  if (!lexical.empty() && (lexical[0] == '+' || lexical[0] == '-')) {
    negative = lexical[0] == '-';
    lexical.remove_prefix(1);
  }
  const size_t dot = lexical.find('.');
  std::string whole(lexical.substr(0, dot)), fraction(dot == std::string_view::npos ? "" : lexical.substr(dot + 1));
  const auto digitsOnly = [](const std::string& d) { return std::all_of(d.begin(), d.end(), ::isdigit); };
  if ((whole.empty() && fraction.empty()) || !digitsOnly(whole) || !digitsOnly(fraction)) return std::nullopt;
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size()));
  fraction.erase(fraction.find_last_not_of('0') + 1);
  std::string value = (whole.empty() ? "0" : whole) + (fraction.empty() ? "" : "." + fraction);
  return (negative && value != "0" ? "-" : "") + value;
}

// The value of a float or double literal, printed so that equal values give
// equal text; nullopt when the lexical form is not a number.
std::optional<std::string> floatingValue(std::string_view lexical, bool single) {
  if (lexical == "INF" || lexical == "-INF" || lexical == "NaN") return std::string(lexical);
  std::string text(lexical);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  char printed[40];
  std::snprintf(printed, sizeof printed, "%.*g", single ? 9 : 17, single ? static_cast<float>(v) : v);
  return std::string(printed);
}

// Computed decimals, floats and doubles are compared by value: the W3C
// expected files write equal values in several lexical forms ("2100" and
// "3.21E4" for two sums of doubles, "1" and "2.0" for two quotients of
// integers), so no single lexical rule matches them all.
std::string numericLexical(std::string_view lexical, std::string_view datatype) {
  std::optional<std::string> value;
  if (datatype == kXsd + "decimal") value = decimalValue(lexical);
  if (datatype == kXsd + "double" || datatype == kXsd + "float") value = floatingValue(lexical, datatype == kXsd + "float");
  return value ? *value : std::string(lexical);
}

}  // namespace

// The engine's own term form (rdf/term.h), language tags lower-cased,
// decimals, floats and doubles by value.
std::string canonicalIri(std::string_view iri) { return rdf::iriTerm(iri); }

std::string canonicalBlank(std::string_view label) { return rdf::blankTerm(label); }

std::string canonicalLiteral(std::string_view lexical, std::string_view lang, std::string_view datatype) {
  return rdf::literalTerm(numericLexical(lexical, datatype), lower(lang), datatype);
}

std::string canonicalTerm(std::string_view t) {
  if (rdf::TripleTermParts parts; rdf::splitTripleTerm(t, &parts)) {
    return rdf::tripleTerm(canonicalTerm(parts.subject), canonicalTerm(parts.predicate), canonicalTerm(parts.object));
  }
  if (t.size() >= 2 && t.front() == '<' && t.back() == '>') return canonicalIri(unescape(t.substr(1, t.size() - 2)));
  if (t.rfind("_:", 0) == 0) return std::string(t);
  if (!t.empty() && t.front() == '"') {
    // The closing quote is the last one not preceded by an escaping backslash.
    size_t close = std::string_view::npos;
    for (size_t i = 1; i < t.size(); ++i) {
      if (t[i] == '\\') {
        ++i;
      } else if (t[i] == '"') {
        close = i;
        break;
      }
    }
    if (close == std::string_view::npos) fail("unterminated literal: " + std::string(t));
    std::string lexical = unescape(t.substr(1, close - 1));
    std::string_view rest = t.substr(close + 1);
    if (rest.empty()) return canonicalLiteral(lexical, "", "");
    if (rest.front() == '@') return canonicalLiteral(lexical, rest.substr(1), "");
    if (rest.rfind("^^<", 0) == 0 && rest.back() == '>')
      return canonicalLiteral(lexical, "", unescape(rest.substr(3, rest.size() - 4)));
    fail("bad literal suffix: " + std::string(t));
  }
  fail("not an N-Triples term: " + std::string(t));
}

std::map<std::string, ResultSet> readDatasetResult(const std::filesystem::path& file) {
  std::map<std::string, ResultSet> graphs;
  graphs[""].isGraph = true;  // the default graph, even when empty
  const RdfFormat format = file.extension() == ".nq" ? RdfFormat::NQuads : RdfFormat::TriG;
  readRdfFile(file, format, [&](const RdfStatementView& st) {
    ResultSet& graph = graphs[std::string(st.graph)];
    graph.isGraph = true;
    graph.triples.insert({canonicalTerm(st.subject), canonicalTerm(st.predicate), canonicalTerm(st.object)});
  });
  return graphs;
}

namespace {

// The solutions the engine's reader (the one SERVICE reads answers with) made
// of a SPARQL JSON or XML document, their terms in the canonical form.
ResultSet canonical(const engine::service::SparqlResults& read) {
  ResultSet r;
  r.variables = read.variables;
  if (read.boolean) {
    r.isBoolean = true;
    r.boolean = *read.boolean;
    return r;
  }
  for (const auto& row : read.rows) {
    Solution s;
    for (size_t c = 0; c < row.size(); ++c) {
      if (row[c]) s[read.variables[c]] = canonicalTerm(*row[c]);
    }
    r.solutions.push_back(std::move(s));
  }
  return r;
}

}  // namespace

ResultSet parseSrx(std::string_view xml) { return canonical(engine::service::readXmlResults(xml)); }

ResultSet parseSrj(std::string_view text) { return canonical(engine::service::readJsonResults(text)); }

ResultSet parseTsv(std::string_view text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in{std::string(text)};
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) fail("TSV: no header line");
  auto split = [](const std::string& l) {
    std::vector<std::string> fields;
    size_t b = 0;
    for (;;) {
      auto tab = l.find('\t', b);
      fields.push_back(l.substr(b, tab == std::string::npos ? std::string::npos : tab - b));
      if (tab == std::string::npos) return fields;
      b = tab + 1;
    }
  };
  ResultSet r;
  r.abbreviatedDoubles = true;
  if (!lines[0].empty()) {
    for (auto& v : split(lines[0])) {
      if (v.empty() || (v[0] != '?' && v[0] != '$')) fail("TSV: bad header field '" + v + "'");
      r.variables.push_back(v.substr(1));
    }
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    auto fields = split(lines[i]);
    if (fields.size() != r.variables.size() && !(r.variables.empty() && lines[i].empty()))
      fail("TSV: line " + std::to_string(i + 1) + " has " + std::to_string(fields.size()) + " fields");
    Solution s;
    for (size_t k = 0; k < r.variables.size(); ++k) {
      const std::string& f = fields[k];
      if (f.empty()) continue;
      bool dot = false, exp = false;
      if (f == "true" || f == "false") {
        s[r.variables[k]] = canonicalLiteral(f, "", kXsd + "boolean");
      } else if (isNumberToken(f, dot, exp)) {
        s[r.variables[k]] = canonicalLiteral(f, "", kXsd + (exp ? "double" : dot ? "decimal" : "integer"));
      } else {
        s[r.variables[k]] = canonicalTerm(f);
      }
    }
    r.solutions.push_back(std::move(s));
  }
  return r;
}

ResultSet readRdfResult(const std::filesystem::path& file) {
  RdfGraph g = RdfGraph::read(file);
  ResultSet r;
  auto sets = g.subjects(iriTerm(kRdf + "type"), iriTerm(kRs + "ResultSet"));
  if (sets.empty()) {
    r.isGraph = true;
    g.forEachTriple([&](const std::string& s, const std::string& p, const std::string& o) {
      r.triples.insert({canonicalTerm(s), canonicalTerm(p), canonicalTerm(o)});
    });
    return r;
  }
  const std::string& set = sets.front();
  for (const auto& v : g.objects(set, iriTerm(kRs + "resultVariable"))) r.variables.push_back(lexicalForm(v));
  if (auto b = g.object(set, iriTerm(kRs + "boolean"))) {
    r.isBoolean = true;
    r.boolean = lexicalForm(*b) == "true";
    return r;
  }
  std::vector<std::pair<long, Solution>> indexed;
  bool allIndexed = true;
  for (const auto& node : g.objects(set, iriTerm(kRs + "solution"))) {
    Solution s;
    for (const auto& binding : g.objects(node, iriTerm(kRs + "binding"))) {
      auto var = g.object(binding, iriTerm(kRs + "variable"));
      auto value = g.object(binding, iriTerm(kRs + "value"));
      if (!var || !value) fail("RDF results: a binding without rs:variable or rs:value");
      s[lexicalForm(*var)] = canonicalTerm(*value);
    }
    auto index = g.object(node, iriTerm(kRs + "index"));
    if (!index) allIndexed = false;
    indexed.emplace_back(index ? std::stol(lexicalForm(*index)) : 0, std::move(s));
  }
  if (allIndexed)
    std::stable_sort(indexed.begin(), indexed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [i, s] : indexed) r.solutions.push_back(std::move(s));
  return r;
}

namespace {

// The literal or resource an RDF/XML property element stands for.
std::string rdfXmlObject(const XmlNode& property) {
  if (auto iri = property.attr("rdf:resource")) return canonicalIri(*iri);
  if (auto id = property.attr("rdf:nodeID")) return canonicalBlank(*id);
  if (!property.children.empty()) fail("RDF/XML results: nested node elements are not read");
  return canonicalLiteral(property.text, property.attr("xml:lang").value_or(""),
                          property.attr("rdf:datatype").value_or(""));
}

// The property elements of a node: those of a parseType="Resource" property
// element itself, or of the one node element it contains.
const XmlNode& nodeOf(const XmlNode& property) {
  if (property.attr("rdf:parseType") == std::optional<std::string>("Resource")) return property;
  if (property.children.size() == 1 && property.children[0].name == "Description") return property.children[0];
  fail("RDF/XML results: <" + property.name + "> is neither parseType=\"Resource\" nor an rdf:Description");
}

}  // namespace

ResultSet parseRdfXmlResultSet(std::string_view xml) {
  XmlNode root = XmlReader(xml).document();
  const XmlNode* set = root.name == "RDF" ? root.child("ResultSet") : root.name == "ResultSet" ? &root : nullptr;
  if (!set) throw UnsupportedFormat("RDF/XML other than one rs:ResultSet node element");
  ResultSet r;
  std::vector<std::pair<long, Solution>> indexed;
  bool allIndexed = true;
  for (const auto& p : set->children) {
    if (p.name == "resultVariable") {
      r.variables.push_back(trim(p.text));
    } else if (p.name == "boolean") {
      r.isBoolean = true;
      r.boolean = trim(p.text) == "true";
    } else if (p.name == "solution") {
      const XmlNode& solution = nodeOf(p);
      Solution s;
      std::optional<long> index;
      for (const auto& q : solution.children) {
        if (q.name == "index") index = std::stol(trim(q.text));
        if (q.name != "binding") continue;
        const XmlNode& binding = nodeOf(q);
        const XmlNode* var = binding.child("variable");
        const XmlNode* value = binding.child("value");
        if (!var || !value) fail("RDF/XML results: a binding without rs:variable or rs:value");
        s[trim(var->text)] = rdfXmlObject(*value);
      }
      if (!index) allIndexed = false;
      indexed.emplace_back(index.value_or(0), std::move(s));
    }
  }
  if (allIndexed)
    std::stable_sort(indexed.begin(), indexed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [i, s] : indexed) r.solutions.push_back(std::move(s));
  return r;
}

ResultSet readResultFile(const std::filesystem::path& file, const std::filesystem::path& scratchDir) {
  std::string ext = file.extension().string();
  if (ext == ".srx") return parseSrx(gsparql::test::readText(file));
  if (ext == ".srj") return parseSrj(gsparql::test::readText(file));
  if (ext == ".tsv") return parseTsv(gsparql::test::readText(file));
  if (ext == ".ttl" || ext == ".nt") return readRdfResult(file);
  if (ext == ".rdf") {
    try {
      return parseRdfXmlResultSet(gsparql::test::readText(file));
    } catch (const UnsupportedFormat&) {
      // Not a result set: a graph, read through its N-Triples conversion.
      std::filesystem::path nt = scratchDir / (file.stem().string() + ".expected.nt");
      convertRdfXml(file, nt);
      ResultSet r = readRdfResult(nt);
      std::filesystem::remove(nt);
      return r;
    }
  }
  if (ext == ".csv") throw UnsupportedFormat("CSV result file");
  throw UnsupportedFormat("result file " + ext);
}

std::string describe(const Solution& s) {
  std::string out = "{";
  for (const auto& [var, term] : s) {
    if (out.size() > 1) out += ", ";
    out += "?" + var + "=" + term;
  }
  return out + "}";
}

std::string describe(const Triple& t) { return t[0] + " " + t[1] + " " + t[2] + " ."; }

namespace {

// A blank node, or a triple term holding one.
bool holdsBlank(const std::string& term) {
  if (isBlank(term)) return true;
  std::vector<std::string> atoms;
  if (term.starts_with("<<(")) appendAtoms(atoms, term);
  return std::any_of(atoms.begin(), atoms.end(), isBlank);
}

bool hasBlank(const Solution& s) {
  return std::any_of(s.begin(), s.end(), [](const auto& kv) { return holdsBlank(kv.second); });
}

// Solutions with blank nodes matched up to one consistent renaming.
class BlankMatcher {
 public:
  BlankMatcher(const std::vector<const Solution*>& e, const std::vector<const Solution*>& a, size_t maxSteps)
      : e_(e), a_(a), used_(a.size(), false), maxSteps_(maxSteps) {}
  // true: matched; false: no renaming works; nullopt: gave up.
  std::optional<bool> run() {
    bool ok = search(0);
    if (steps_ > maxSteps_) return std::nullopt;
    return ok;
  }

 private:
  bool search(size_t i) {
    if (i == e_.size()) return true;
    for (size_t j = 0; j < a_.size(); ++j) {
      if (used_[j]) continue;
      if (++steps_ > maxSteps_) return false;
      std::vector<std::string> added;
      if (extend(*e_[i], *a_[j], added)) {
        used_[j] = true;
        if (search(i + 1)) return true;
        used_[j] = false;
      }
      for (const auto& k : added) {
        reverse_.erase(forward_[k]);
        forward_.erase(k);
      }
      if (steps_ > maxSteps_) return false;
    }
    return false;
  }
  bool extend(const Solution& e, const Solution& a, std::vector<std::string>& added) {
    if (e.size() != a.size()) return false;
    for (auto ie = e.begin(), ia = a.begin(); ie != e.end(); ++ie, ++ia) {
      if (ie->first != ia->first) return false;
      std::vector<std::string> xs, ys;  // triple terms opened, for the blank nodes inside
      appendAtoms(xs, ie->second);
      appendAtoms(ys, ia->second);
      if (xs.size() != ys.size()) return false;
      for (size_t k = 0; k < xs.size(); ++k) {
        if (!match(xs[k], ys[k], added)) return false;
      }
    }
    return true;
  }
  bool match(const std::string& x, const std::string& y, std::vector<std::string>& added) {
    if (isBlank(x) != isBlank(y)) return false;
    if (!isBlank(x)) return x == y;
    auto f = forward_.find(x);
    if (f != forward_.end()) return f->second == y;
    if (reverse_.count(y)) return false;
    forward_[x] = y;
    reverse_[y] = x;
    added.push_back(x);
    return true;
  }

  const std::vector<const Solution*>& e_;
  const std::vector<const Solution*>& a_;
  std::vector<bool> used_;
  std::map<std::string, std::string> forward_, reverse_;
  size_t steps_ = 0, maxSteps_;
};

std::string listSome(const std::vector<std::string>& items, size_t max = 4) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < max; ++i) out += (i ? "; " : "") + items[i];
  if (items.size() > max) out += "; ... (" + std::to_string(items.size() - max) + " more)";
  return out;
}

// What a bag holds, for the messages: solutions, or triples as solutions of ?s ?p ?o.
struct BagItems {
  const char* noun;
  std::string (*show)(const Solution&);  // one-to-one
};
const BagItems kSolutions{"solutions", [](const Solution& s) { return describe(s); }};
const BagItems kTriples{"triples", [](const Solution& s) { return describe(Triple{s.at("s"), s.at("p"), s.at("o")}); }};

std::optional<std::string> compareBags(const std::vector<Solution>& expected, const std::vector<Solution>& actual,
                                       size_t maxSteps, const BagItems& items = kSolutions) {
  std::multiset<std::string> groundE, groundA;
  std::vector<const Solution*> blankE, blankA;
  for (const auto& s : expected) {
    if (hasBlank(s)) blankE.push_back(&s);
    else groundE.insert(items.show(s));
  }
  for (const auto& s : actual) {
    if (hasBlank(s)) blankA.push_back(&s);
    else groundA.insert(items.show(s));
  }
  std::vector<std::string> missing, extra;
  std::set_difference(groundE.begin(), groundE.end(), groundA.begin(), groundA.end(), std::back_inserter(missing));
  std::set_difference(groundA.begin(), groundA.end(), groundE.begin(), groundE.end(), std::back_inserter(extra));
  std::string counts = "expected " + std::to_string(expected.size()) + " " + items.noun + ", got " +
                       std::to_string(actual.size());
  auto showAll = [&](const std::vector<const Solution*>& bag) {
    std::vector<std::string> out;
    for (auto* s : bag) out.push_back(items.show(*s));
    return listSome(out);
  };
  if (!missing.empty() || !extra.empty()) {
    std::string diff = counts;
    if (!missing.empty()) diff += "; missing: " + listSome(missing);
    if (!extra.empty()) diff += "; unexpected: " + listSome(extra);
    return diff;
  }
  if (blankE.size() != blankA.size())
    return counts + "; with blank nodes, expected: " + showAll(blankE) + "; got: " + showAll(blankA);
  auto matched = BlankMatcher(blankE, blankA, maxSteps).run();
  if (!matched) return "blank-node matching gave up after " + std::to_string(maxSteps) + " steps";
  if (!*matched) return "no consistent blank-node renaming; expected: " + showAll(blankE) + "; got: " + showAll(blankA);
  return std::nullopt;
}

// Graphs are equal when one bijection of blank nodes maps the one's triples
// onto the other's: the bag comparison of their triples as ?s ?p ?o solutions.
std::optional<std::string> compareGraphs(const std::set<Triple>& expected, const std::set<Triple>& actual,
                                         size_t maxSteps) {
  auto asSolutions = [](const std::set<Triple>& triples) {
    std::vector<Solution> out;
    for (const auto& [s, p, o] : triples) out.push_back({{"s", s}, {"p", p}, {"o", o}});
    return out;
  };
  return compareBags(asSolutions(expected), asSolutions(actual), maxSteps, kTriples);
}

const char* kindOf(const ResultSet& r) { return r.isBoolean ? "a boolean" : r.isGraph ? "a graph" : "solutions"; }

std::vector<Solution> distinctSolutions(const std::vector<Solution>& in) {
  std::vector<Solution> out;
  std::set<std::string> seen;
  for (const auto& s : in)
    if (seen.insert(describe(s)).second) out.push_back(s);
  return out;
}

std::string orderKey(const Solution& s, const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) {
    auto it = s.find(k);
    out += "?" + k + "=" + (it == s.end() ? "(unbound)" : isBlank(it->second) ? "_:" : it->second) + " ";
  }
  return out;
}

}  // namespace

namespace {

// "1.0E6"^^xsd:double -> "1.0e6"^^xsd:double
ResultSet withLowerCaseExponents(const ResultSet& in) {
  static const std::string suffix = "\"^^<" + kXsd + "double>";
  ResultSet out = in;
  for (auto& s : out.solutions)
    for (auto& [var, term] : s)
      if (term.size() > suffix.size() && term.compare(term.size() - suffix.size(), suffix.size(), suffix) == 0)
        for (auto& c : term)
          if (c == 'E') c = 'e';
  out.abbreviatedDoubles = false;
  return out;
}

}  // namespace

std::optional<std::string> compareResults(const ResultSet& expected, const ResultSet& actual,
                                          const CompareOptions& options) {
  if (expected.abbreviatedDoubles || actual.abbreviatedDoubles)
    return compareResults(withLowerCaseExponents(expected), withLowerCaseExponents(actual), options);
  if (expected.isBoolean != actual.isBoolean || expected.isGraph != actual.isGraph)
    return std::string("expected ") + kindOf(expected) + ", got " + kindOf(actual);
  if (expected.isGraph) return compareGraphs(expected.triples, actual.triples, options.maxSteps);
  if (expected.isBoolean) {
    if (expected.boolean != actual.boolean)
      return std::string("expected ") + (expected.boolean ? "true" : "false") + ", got " +
             (actual.boolean ? "true" : "false");
    return std::nullopt;
  }
  if (options.laxCardinality) {
    if (auto d = compareBags(distinctSolutions(expected.solutions), distinctSolutions(actual.solutions),
                             options.maxSteps))
      return "(distinct solutions) " + *d;
    std::multiset<std::string> e, a;
    for (const auto& s : expected.solutions) e.insert(describe(s));
    for (const auto& s : actual.solutions) a.insert(describe(s));
    for (const auto& solution : actual.solutions) {
      std::string s = describe(solution);
      if (!hasBlank(solution) && a.count(s) > e.count(s))
        return "solution " + s + " occurs " + std::to_string(a.count(s)) + " times, at most " +
               std::to_string(e.count(s)) + " expected";
    }
    return std::nullopt;
  }
  if (auto d = compareBags(expected.solutions, actual.solutions, options.maxSteps)) return d;
  if (!options.orderKeys.empty()) {
    for (size_t i = 0; i < expected.solutions.size(); ++i) {
      std::string e = orderKey(expected.solutions[i], options.orderKeys);
      std::string a = orderKey(actual.solutions[i], options.orderKeys);
      if (e != a) return "order differs at solution " + std::to_string(i + 1) + ": expected " + e + ", got " + a;
    }
  }
  return std::nullopt;
}

}  // namespace gsparql::conformance
