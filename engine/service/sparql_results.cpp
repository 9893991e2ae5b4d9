#include "engine/service/sparql_results.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

#include "engine/service/remote_failure.h"
#include "rdf/term.h"

namespace gsparql::engine::service {
namespace {

constexpr std::string_view kRdfLangString = rdf::kRdfLangString;

[[noreturn]] void fail(const std::string& what) { throw RemoteFailure(what); }

// BCP 47 shape (letters, then '-' and letters or digits): anything else
// would not be one term once written after '@'.
bool isLanguageTag(std::string_view tag) {
  if (tag.empty() || tag.front() == '-' || tag.back() == '-') return false;
  bool letters = true;  // the first subtag is letters only
  for (char c : tag) {
    if (c == '-') {
      letters = false;
    } else if (!std::isalpha(static_cast<unsigned char>(c)) && (letters || !std::isdigit(static_cast<unsigned char>(c)))) {
      return false;
    }
  }
  return tag.find("--") == std::string_view::npos;
}

// The label a document gives a blank node names it within that document
// only; any text will do, as the caller renames them all.
// SPARQL 1.2: a literal's base direction is "ltr" or "rtl", written after its tag.
std::string term(std::string_view type, const std::string& value, const std::string& lang, const std::string& datatype,
                 const std::string& direction, const char* format) {
  if (type == "uri") return rdf::iriTerm(value);
  if (type == "bnode") {
    if (value.empty()) fail(std::string(format) + ": a blank node without a label");
    return rdf::blankTerm(value);
  }
  if (type == "literal" || type == "typed-literal") {  // typed-literal: the 2007 JSON note, still sent by some
    if (!lang.empty()) {
      if (!isLanguageTag(lang)) fail(std::string(format) + ": bad language tag '" + lang + "'");
      if (!datatype.empty() && datatype != kRdfLangString && datatype != rdf::kRdfDirLangString) {
        fail(std::string(format) + ": a literal with a language and a datatype");
      }
      if (direction.empty()) return rdf::literalTerm(value, lang);
      if (direction != "ltr" && direction != "rtl") fail(std::string(format) + ": bad base direction '" + direction + "'");
      return rdf::literalTerm(value, lang + "--" + direction);
    }
    if (datatype == kRdfLangString) fail(std::string(format) + ": rdf:langString without a language");
    return rdf::literalTerm(value, {}, datatype);
  }
  fail(std::string(format) + ": unknown term type '" + std::string(type) + "'");
}

// Triple terms nest; a document nesting them deeper is refused, not recursed into.
constexpr int kMaxTripleDepth = 64;
constexpr const char* kItsNamespace = "http://www.w3.org/2005/11/its";

std::string tripleOf(std::string subject, std::string predicate, std::string object, const char* format) {
  const rdf::TermKind kind = rdf::termKind(subject);
  if ((kind != rdf::TermKind::Iri && kind != rdf::TermKind::Blank && kind != rdf::TermKind::Triple) ||
      rdf::termKind(predicate) != rdf::TermKind::Iri) {
    fail(std::string(format) + ": a triple term with a bad subject or predicate");
  }
  return rdf::tripleTerm(subject, predicate, object);
}

// Sets the cell of `variable` in the last row, adding the variable where
// the head did not name it.
void bind(SparqlResults& results, const std::string& variable, std::string value) {
  auto at = std::find(results.variables.begin(), results.variables.end(), variable);
  if (at == results.variables.end()) {
    results.variables.push_back(variable);
    for (auto& row : results.rows) row.emplace_back();
    at = results.variables.end() - 1;
  }
  results.rows.back()[static_cast<size_t>(at - results.variables.begin())] = std::move(value);
}

const std::string& stringOf(const nlohmann::json& j, const char* what) {
  if (!j.is_string()) fail(std::string("SPARQL JSON results: ") + what + " is not a string");
  return j.get_ref<const std::string&>();
}

std::string optionalString(const nlohmann::json& cell, const char* key) {
  const auto it = cell.find(key);
  return it == cell.end() ? std::string() : stringOf(*it, key);
}

std::string jsonTerm(const nlohmann::json& cell, int depth) {
  if (!cell.is_object()) fail("SPARQL JSON results: a term is not an object");
  const auto type = cell.find("type"), value = cell.find("value");
  if (type == cell.end() || value == cell.end()) fail("SPARQL JSON results: a term lacks type or value");
  if (stringOf(*type, "a type") != "triple") {
    return term(stringOf(*type, "a type"), stringOf(*value, "a value"), optionalString(cell, "xml:lang"),
                optionalString(cell, "datatype"), optionalString(cell, "its:dir"), "SPARQL JSON results");
  }
  if (!value->is_object() || depth >= kMaxTripleDepth) fail("SPARQL JSON results: a bad or too deeply nested triple");
  std::string parts[3];
  const char* names[] = {"subject", "predicate", "object"};
  for (int i = 0; i < 3; ++i) {
    const auto part = value->find(names[i]);
    if (part == value->end()) fail(std::string("SPARQL JSON results: a triple without its ") + names[i]);
    parts[i] = jsonTerm(*part, depth + 1);
  }
  return tripleOf(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]), "SPARQL JSON results");
}

// libxml2 strings are unsigned char.
std::string text(const xmlChar* s) { return s == nullptr ? std::string() : reinterpret_cast<const char*>(s); }
bool named(const xmlNode* node, const char* name) {
  return node->type == XML_ELEMENT_NODE && xmlStrcmp(node->name, reinterpret_cast<const xmlChar*>(name)) == 0;
}
const xmlNode* child(const xmlNode* parent, const char* name) {
  for (const xmlNode* c = parent->children; c != nullptr; c = c->next) {
    if (named(c, name)) return c;
  }
  return nullptr;
}
std::string attribute(const xmlNode* node, const char* name, const char* ns = nullptr) {
  using Text = std::unique_ptr<xmlChar, void (*)(void*)>;
  const auto* n = reinterpret_cast<const xmlChar*>(name);
  Text value(ns == nullptr ? xmlGetNoNsProp(node, n) : xmlGetNsProp(node, n, reinterpret_cast<const xmlChar*>(ns)),
             xmlFree);
  return text(value.get());
}
std::string content(const xmlNode* node) {
  std::unique_ptr<xmlChar, void (*)(void*)> value(xmlNodeGetContent(node), xmlFree);
  return text(value.get());
}
std::string trimmed(std::string s) {
  const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  return s;
}

const xmlNode* firstElement(const xmlNode* parent) {
  const xmlNode* node = parent->children;
  while (node != nullptr && node->type != XML_ELEMENT_NODE) node = node->next;
  return node;
}

std::string xmlTerm(const xmlNode* value, int depth) {
  const std::string type = text(value->name);
  if (type != "triple") {
    const std::string lexical = type == "literal" ? content(value) : trimmed(content(value));
    return term(type, lexical, attribute(value, "lang", reinterpret_cast<const char*>(XML_XML_NAMESPACE)),
                attribute(value, "datatype"), attribute(value, "dir", kItsNamespace), "SPARQL XML results");
  }
  if (depth >= kMaxTripleDepth) fail("SPARQL XML results: triples nested too deeply");
  std::string parts[3];
  const char* names[] = {"subject", "predicate", "object"};
  for (int i = 0; i < 3; ++i) {
    const xmlNode* part = child(value, names[i]);
    const xmlNode* inner = part == nullptr ? nullptr : firstElement(part);
    if (inner == nullptr) fail(std::string("SPARQL XML results: a <triple> without its ") + names[i]);
    parts[i] = xmlTerm(inner, depth + 1);
  }
  return tripleOf(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]), "SPARQL XML results");
}

void readXmlBinding(const xmlNode* binding, SparqlResults& results) {
  const std::string name = attribute(binding, "name");
  if (name.empty()) fail("SPARQL XML results: a <binding> without a name");
  const xmlNode* value = firstElement(binding);
  if (value == nullptr) fail("SPARQL XML results: an empty <binding name=\"" + name + "\">");
  bind(results, name, xmlTerm(value, 0));
}

}  // namespace

SparqlResults readJsonResults(std::string_view text) {
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
  if (root.is_discarded()) fail("SPARQL JSON results: not JSON");
  if (!root.is_object()) fail("SPARQL JSON results: not an object");
  SparqlResults results;
  if (const auto head = root.find("head"); head != root.end() && head->is_object()) {
    if (const auto vars = head->find("vars"); vars != head->end()) {
      if (!vars->is_array()) fail("SPARQL JSON results: head.vars is not an array");
      for (const auto& v : *vars) results.variables.push_back(stringOf(v, "a variable"));
    }
  }
  if (const auto boolean = root.find("boolean"); boolean != root.end()) {
    if (!boolean->is_boolean()) fail("SPARQL JSON results: boolean is not true or false");
    results.boolean = boolean->get<bool>();
    return results;
  }
  const auto found = root.find("results");
  if (found == root.end() || !found->is_object()) fail("SPARQL JSON results: no results object");
  const auto bindings = found->find("bindings");
  if (bindings == found->end() || !bindings->is_array()) fail("SPARQL JSON results: no results.bindings array");
  for (const auto& solution : *bindings) {
    if (!solution.is_object()) fail("SPARQL JSON results: a solution is not an object");
    results.rows.emplace_back(results.variables.size());
    for (const auto& [variable, cell] : solution.items()) {
      bind(results, variable, jsonTerm(cell, 0));
    }
  }
  return results;
}

SparqlResults readXmlResults(std::string_view body) {
  // libxml2 must be initialised once before threads use it (queries of a
  // server read answers on several workers at once).
  static std::once_flag initialised;
  std::call_once(initialised, xmlInitParser);
  // No network, no DTD loading and no entity expansion: a remote document
  // must not make this process read files or URLs (XXE).
  std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
      xmlReadMemory(body.data(), static_cast<int>(std::min<size_t>(body.size(), INT32_MAX)), nullptr, nullptr,
                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
      xmlFreeDoc);
  if (!doc) fail("SPARQL XML results: not well-formed XML");
  const xmlNode* root = xmlDocGetRootElement(doc.get());
  if (root == nullptr || !named(root, "sparql")) fail("SPARQL XML results: the root element is not <sparql>");
  SparqlResults results;
  if (const xmlNode* head = child(root, "head")) {
    for (const xmlNode* v = head->children; v != nullptr; v = v->next) {
      if (named(v, "variable")) results.variables.push_back(attribute(v, "name"));
    }
  }
  if (const xmlNode* boolean = child(root, "boolean")) {
    const std::string value = trimmed(content(boolean));
    if (value != "true" && value != "false") fail("SPARQL XML results: bad boolean '" + value + "'");
    results.boolean = value == "true";
    return results;
  }
  const xmlNode* list = child(root, "results");
  if (list == nullptr) fail("SPARQL XML results: neither <results> nor <boolean>");
  for (const xmlNode* result = list->children; result != nullptr; result = result->next) {
    if (!named(result, "result")) continue;
    results.rows.emplace_back(results.variables.size());
    for (const xmlNode* binding = result->children; binding != nullptr; binding = binding->next) {
      if (named(binding, "binding")) readXmlBinding(binding, results);
    }
  }
  return results;
}

SparqlResults readResults(std::string_view contentType, std::string_view body) {
  std::string type(contentType.substr(0, contentType.find(';')));
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
  if (type.find("json") != std::string::npos) return readJsonResults(body);
  if (type.find("xml") != std::string::npos) return readXmlResults(body);
  const size_t first = body.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && body[first] == '{') return readJsonResults(body);
  if (first != std::string_view::npos && body[first] == '<') return readXmlResults(body);
  fail("the answer is neither SPARQL JSON nor SPARQL XML results (Content-Type: " +
       (contentType.empty() ? std::string("none") : std::string(contentType)) + ")");
}

}  // namespace gsparql::engine::service
