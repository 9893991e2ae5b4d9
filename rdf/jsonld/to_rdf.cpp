#include "rdf/jsonld/to_rdf.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "rdf/jsonld/canonical_json.h"
#include "rdf/term.h"

namespace gsparql::jsonld {
namespace {

std::string rdf(std::string_view local) { return std::string(kRdfNs) + std::string(local); }
std::string xsd(std::string_view local) { return std::string(kXsdNs) + std::string(local); }

// Blank node identifiers of the document relabelled _:b0, _:b1, ... in the
// order met, and new ones for nodes without @id.
class IdIssuer {
 public:
  std::string issue(const std::string& old) {
    if (auto at = issued_.find(old); at != issued_.end()) return at->second;
    return issued_[old] = fresh();
  }
  std::string fresh() { return "_:b" + std::to_string(counter_++); }

 private:
  std::map<std::string, std::string> issued_;
  uint64_t counter_ = 0;
};

// Node Map Generation: every node object of every graph, flattened, with
// its properties' values as node references, value objects and lists.
class NodeMapBuilder {
 public:
  NodeMapBuilder(Json& nodeMap, IdIssuer& issuer) : nodeMap_(nodeMap), issuer_(issuer) {}

  void add(const Json& element, const std::string& graph, const Json& subject, const std::optional<std::string>& property,
           Json* list) {
    if (element.is_array()) {
      for (const Json& item : element) add(item, graph, subject, property, list);
      return;
    }
    Json& graphMap = nodeMap_[graph];
    if (graphMap.is_null()) graphMap = Json::object();
    if (isValueObject(element)) {
      appendTo(graphMap, subject, property, element, list, true);
      return;
    }
    if (isListObject(element)) {
      Json result{{"@list", Json::array()}};
      add(element["@list"], graph, subject, property, &result);
      appendTo(graphMap, subject, property, result, list, false);
      return;
    }
    addNode(element, graph, subject, property, list);
  }

 private:
  // Adds `value` to the list being built, else to subject's property.
  void appendTo(Json& graphMap, const Json& subject, const std::optional<std::string>& property, const Json& value,
                Json* list, bool unique) {
    if (list != nullptr) {
      (*list)["@list"].push_back(value);
    } else if (subject.is_string() && property) {
      addValue(graphMap[subject.get<std::string>()], *property, value, !unique);
    }
  }

  std::string idOf(const Json& element) {
    if (!element.contains("@id") || element["@id"].is_null()) {
      return element.contains("@id") ? std::string() : issuer_.fresh();
    }
    const std::string id = element["@id"].get<std::string>();
    return isBlankNodeId(id) ? issuer_.issue(id) : id;
  }

  void addNode(const Json& element, const std::string& graph, const Json& subject,
               const std::optional<std::string>& property, Json* list) {
    const std::string id = idOf(element);
    Json& graphMap = nodeMap_[graph];
    if (!graphMap.contains(id)) graphMap[id] = Json{{"@id", id}};
    if (subject.is_object()) {  // a reverse property: the node points back at `subject`
      addValue(graphMap[id], *property, subject, false);
    } else if (property) {
      appendTo(graphMap, subject, property, Json{{"@id", id}}, list, true);
    }
    for (const auto& [key, value] : element.items()) {
      if (key == "@type") {
        for (const Json& type : value) {
          const std::string name = type.get<std::string>();
          addValue(nodeMap_[graph][id], "@type", isBlankNodeId(name) ? issuer_.issue(name) : name, false);
        }
      } else if (key == "@index") {
        Json& node = nodeMap_[graph][id];
        if (node.contains("@index") && node["@index"] != value) throw JsonLdError("conflicting indexes", id);
        node["@index"] = value;
      } else if (key == "@reverse") {
        const Json referenced{{"@id", id}};
        for (const auto& [reverseProperty, values] : value.items()) {
          for (const Json& v : values) add(v, graph, referenced, reverseProperty, nullptr);
        }
      } else if (key == "@graph") {
        add(value, id, Json(), std::nullopt, nullptr);
      } else if (key == "@included") {
        add(value, graph, Json(), std::nullopt, nullptr);
      } else if (!isKeyword(key)) {  // @id is done; other keywords (@language on a node) make no statement
        const std::string name = isBlankNodeId(key) ? issuer_.issue(key) : key;
        Json& node = nodeMap_[graph][id];
        if (!node.contains(name)) node[name] = Json::array();
        add(value, graph, Json(id), name, nullptr);
      }
    }
  }

  Json& nodeMap_;
  IdIssuer& issuer_;
};

// The canonical xsd:double form JSON-LD asks for: 1.1E0, 1.0E21 (the
// shortest digits that read back as the number).
std::string canonicalDouble(double value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value + 0.0, std::chars_format::scientific);
  const std::string text(buffer, end);
  const size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  if (mantissa.find('.') == std::string::npos) mantissa += ".0";
  return mantissa + "E" + std::to_string(std::stoi(text.substr(e + 1)));
}

class Converter {
 public:
  Converter(const Options& options, const RdfSink& sink, IdIssuer& issuer)
      : options_(options), sink_(sink), issuer_(issuer) {}

  void graph(const std::string& name, const Json& nodes) {
    std::string graphTerm;
    if (name != "@default") {
      const std::optional<std::string> term = resource(name);
      if (!term) return drop("the graph name '" + name + "' is not an absolute IRI");
      graphTerm = *term;
    }
    for (const auto& [subject, node] : nodes.items()) {
      const std::optional<std::string> subjectTerm = resource(subject);
      if (!subjectTerm) {
        drop("the node '" + subject + "' is not an absolute IRI");
        continue;
      }
      for (const auto& [property, values] : node.items()) properties(*subjectTerm, property, values, graphTerm);
    }
  }

 private:
  void properties(const std::string& subject, const std::string& property, const Json& values, const std::string& graph) {
    if (property == "@type") {
      for (const Json& type : values) {
        if (const std::optional<std::string> object = resource(type.get<std::string>())) {
          emit(subject, rdf::iriTerm(rdf::kRdfType), *object, graph);
        } else {
          drop("the type '" + type.get<std::string>() + "' is not an absolute IRI");
        }
      }
      return;
    }
    if (isKeyword(property)) return;
    const std::optional<std::string> predicate = resource(property);
    if (!predicate || (isBlankNodeId(property) && !options_.produceGeneralizedRdf)) {
      return drop("the property '" + property + "' is not an absolute IRI");
    }
    for (const Json& item : values) {
      std::vector<Statement> listStatements;
      if (const std::optional<std::string> object = objectOf(item, listStatements)) emit(subject, *predicate, *object, graph);
      for (Statement& s : listStatements) emit(s.subject, s.predicate, s.object, graph);
    }
  }

  void emit(const std::string& s, const std::string& p, const std::string& o, const std::string& g) {
    sink_.statement(Statement{s, p, o, g});
  }
  void drop(const std::string& why) {
    if (sink_.dropped) sink_.dropped(why);
  }

  // An IRI or blank node identifier as a term; nullopt for anything else.
  std::optional<std::string> resource(const std::string& id) const {
    if (isBlankNodeId(id)) return "_:" + sink_.blankNodePrefix + id.substr(2);
    if (isWellFormedIri(id)) return rdf::iriTerm(id);
    return std::nullopt;
  }

  std::optional<std::string> objectOf(const Json& item, std::vector<Statement>& listStatements) {
    if (isListObject(item)) return list(item["@list"], listStatements);
    if (!isValueObject(item)) {
      const std::string id = item.value("@id", Json()).is_string() ? item["@id"].get<std::string>() : std::string();
      const std::optional<std::string> term = resource(id);
      if (!term) drop("the node '" + id + "' is not an absolute IRI");
      return term;
    }
    return literal(item, listStatements);
  }

  // A value object as a literal (a string with a direction: directional()).
  std::optional<std::string> literal(const Json& item, std::vector<Statement>& statements) {
    std::optional<std::string> datatype;
    if (item.contains("@type")) datatype = item["@type"].get<std::string>();
    if (datatype && *datatype != "@json" && !isWellFormedIri(*datatype)) {
      drop("the datatype '" + *datatype + "' is not an absolute IRI");
      return std::nullopt;
    }
    const std::string language = item.value("@language", "");
    if (item.contains("@language") && !isWellFormedLanguage(language)) {
      drop("the language tag '" + language + "' is not well-formed");
      return std::nullopt;
    }
    const std::string lexical = lexicalForm(item["@value"], datatype);
    if (item.contains("@direction") && options_.rdfDirection) {
      return directional(lexical, language, item["@direction"].get<std::string>(), statements);
    }
    if (!language.empty()) return rdf::literalTerm(lexical, language);
    return rdf::literalTerm(lexical, {}, *datatype != rdf::kXsdString ? *datatype : std::string());
  }

  // The lexical form of a value, and its datatype where the value implies
  // one: canonical JSON (rdf:JSON), true/false, an integer, or a double in
  // canonical form (1.1E0) for a number with a fraction, of 1e21 or more, or
  // typed xsd:double; xsd:string for a string.
  static std::string lexicalForm(const Json& value, std::optional<std::string>& datatype) {
    if (datatype == "@json") {
      datatype = rdf("JSON");
      return canonicalJson(value);
    }
    if (value.is_boolean()) {
      if (!datatype) datatype = xsd("boolean");
      return value.get<bool>() ? "true" : "false";
    }
    if (!value.is_number()) {
      if (!datatype) datatype = std::string(rdf::kXsdString);
      return value.get<std::string>();
    }
    const double number = value.get<double>();
    const bool fraction = value.is_number_float() && (std::fmod(number, 1.0) != 0 || std::fabs(number) >= 1e21);
    if (fraction || datatype == xsd("double")) {
      if (!datatype) datatype = xsd("double");
      return canonicalDouble(number);
    }
    if (!datatype) datatype = xsd("integer");
    return value.is_number_float() ? integerText(number) : value.dump();
  }

  // A string with a direction, as rdfDirection says: a literal of an
  // i18n datatype, or a compound literal (a blank node with rdf:value,
  // rdf:language and rdf:direction, in `statements`). The language tag is
  // lower-cased there, as the API does.
  std::string directional(const std::string& lexical, std::string language, const std::string& direction,
                          std::vector<Statement>& statements) {
    std::transform(language.begin(), language.end(), language.begin(), [](unsigned char c) { return std::tolower(c); });
    if (options_.rdfDirection == "i18n-datatype") {
      return rdf::literalTerm(lexical, {}, "https://www.w3.org/ns/i18n#" + language + "_" + direction);
    }
    const std::string node = *resource(issuer_.fresh());
    statements.push_back({node, rdf::iriTerm(rdf("value")), rdf::literalTerm(lexical), {}});
    if (!language.empty()) statements.push_back({node, rdf::iriTerm(rdf("language")), rdf::literalTerm(language), {}});
    statements.push_back({node, rdf::iriTerm(rdf("direction")), rdf::literalTerm(direction), {}});
    return node;
  }


  static std::string integerText(double number) {
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.0f", number + 0.0);  // -0 is 0
    return buffer;
  }

  // List Conversion: rdf:first / rdf:rest cells from blank nodes, rdf:nil at the end.
  std::string list(const Json& items, std::vector<Statement>& statements) {
    if (items.empty()) return rdf::iriTerm(rdf("nil"));
    std::vector<std::string> cells;
    for (size_t i = 0; i < items.size(); ++i) cells.push_back(*resource(issuer_.fresh()));
    for (size_t i = 0; i < items.size(); ++i) {
      std::vector<Statement> embedded;
      if (const std::optional<std::string> object = objectOf(items[i], embedded)) {
        statements.push_back({cells[i], rdf::iriTerm(rdf("first")), *object, {}});
      }
      for (Statement& s : embedded) statements.push_back(std::move(s));
      statements.push_back({cells[i], rdf::iriTerm(rdf("rest")),
                            i + 1 < items.size() ? cells[i + 1] : rdf::iriTerm(rdf("nil")), {}});
    }
    return cells[0];
  }

  const Options& options_;
  const RdfSink& sink_;
  IdIssuer& issuer_;
};

}  // namespace

void toRdf(const Json& expanded, const Options& options, const RdfSink& sink) {
  Json nodeMap{{"@default", Json::object()}};
  IdIssuer issuer;
  NodeMapBuilder(nodeMap, issuer).add(expanded, "@default", Json(), std::nullopt, nullptr);
  Converter converter(options, sink, issuer);
  for (const auto& [name, nodes] : nodeMap.items()) converter.graph(name, nodes);
}

}  // namespace gsparql::jsonld
