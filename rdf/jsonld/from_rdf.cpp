#include "rdf/jsonld/from_rdf.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "rdf/jsonld/document.h"
#include "rdf/term_parts.h"

namespace gsparql::jsonld {
namespace {

const std::string kFirst = std::string(kRdfNs) + "first";
const std::string kRest = std::string(kRdfNs) + "rest";
const std::string kNil = std::string(kRdfNs) + "nil";
const std::string kList = std::string(kRdfNs) + "List";
const std::string kType = std::string(kRdfNs) + "type";
const std::string kJson = std::string(kRdfNs) + "JSON";
// Lists in lists made @list at most this deep: two JSON levels each, well
// within what the reader takes (kMaxJsonNesting).
constexpr size_t kMaxListNesting = 100;
static_assert(2 * kMaxListNesting + 16 < kMaxJsonNesting);

// A node's id as the expanded form writes it: the IRI, or "_:label".
std::string idOf(const rdf::TermParts& term) {
  return term.kind == rdf::TermKind::Blank ? "_:" + std::string(term.value) : std::string(term.value);
}

// Where an object value sits: graph `graph`, node `subject`, property, position.
struct Usage {
  std::string graph, subject, property;
  size_t index = 0;
};

// A list's cells, first to last, and the value that stands for the list.
struct Chain {
  std::vector<std::string> cells;
  Usage head;
};

bool isIntegerLexical(std::string_view s) {
  size_t i = s.starts_with('-') || s.starts_with('+') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

class Serializer {
 public:
  explicit Serializer(const Options& options) : options_(options) {}

  void add(const Quad& quad) {
    // A dataset holds each statement once (a repeated one would make its blank node look used twice).
    if (!seen_.insert(quad.subject + ' ' + quad.predicate + ' ' + quad.object + ' ' + quad.graph).second) return;
    const std::string name = quad.graph.empty() ? "@default" : idOf(splitter_.split(quad.graph));
    Json& nodes = graphs_[name];
    if (nodes.is_null()) nodes = Json::object();
    if (name != "@default" && !graphs_["@default"].contains(name)) graphs_["@default"][name] = Json{{"@id", name}};
    const std::string subject = idOf(splitter_.split(quad.subject));
    const std::string predicate(splitter_.split(quad.predicate).value);
    Json& graphNodes = graphs_[name];
    if (!graphNodes.contains(subject)) graphNodes[subject] = Json{{"@id", subject}};
    const rdf::TermParts& object = splitter_.split(quad.object);
    const bool resource = object.kind != rdf::TermKind::Literal;
    const std::string objectId = resource ? idOf(object) : std::string();
    if (resource && !graphNodes.contains(objectId)) graphNodes[objectId] = Json{{"@id", objectId}};
    Json& node = graphNodes[subject];
    if (predicate == kType && !options_.useRdfType && resource) {
      addValue(node, "@type", objectId, false);
      return;
    }
    const Json value = toObject(object);
    Json& values = node[predicate];
    if (values.is_null()) values = Json::array();
    size_t index = 0;
    while (index < values.size() && values[index] != value) ++index;
    if (index == values.size()) values.push_back(value);
    const Usage usage{name, subject, predicate, index};
    if (objectId == kNil) {
      nilUsages_[name].push_back(usage);
    } else if (object.kind == rdf::TermKind::Blank) {
      auto [at, first] = referencedOnce_.try_emplace(objectId, usage);
      if (!first) at->second.reset();
    }
  }

  Json finish() {
    if (options_.rdfDirection == "compound-literal") makeCompoundLiterals();
    makeLists();
    Json result = Json::array();
    Json& defaultGraph = graphs_["@default"];
    if (defaultGraph.is_null()) defaultGraph = Json::object();
    for (auto& [subject, node] : defaultGraph.items()) {
      if (subject != "@default" && graphs_.contains(subject)) {
        Json graph = Json::array();
        for (const auto& [id, member] : graphs_[subject].items()) {
          if (member.size() > 1 || !member.contains("@id")) graph.push_back(member);
        }
        node["@graph"] = graph;
      }
      if (node.size() > 1 || !node.contains("@id")) result.push_back(node);
    }
    return result;
  }

 private:
  // RDF to Object Conversion.
  Json toObject(const rdf::TermParts& term) {
    if (term.kind == rdf::TermKind::Triple) throw JsonLdError("JSON-LD 1.1 has no form for a triple term", std::string(term.value));
    if (term.kind != rdf::TermKind::Literal) return Json{{"@id", idOf(term)}};
    const std::string lexical(term.value);
    const std::string datatype = term.datatype.empty() ? std::string(term.language.empty() ? rdf::kXsdString : rdf::kRdfLangString)
                                                       : std::string(term.datatype);
    if (options_.useNativeTypes) {
      if (std::optional<Json> native = nativeValue(lexical, datatype)) return Json{{"@value", *native}};
    }
    Json result{{"@value", lexical}};
    constexpr std::string_view kI18n = "https://www.w3.org/ns/i18n#";
    if (options_.rdfDirection == "i18n-datatype" && datatype.starts_with(kI18n)) {
      const std::string suffix = datatype.substr(kI18n.size());
      const size_t underscore = suffix.find('_');
      if (underscore != std::string::npos && underscore > 0) result["@language"] = suffix.substr(0, underscore);
      if (underscore != std::string::npos) result["@direction"] = suffix.substr(underscore + 1);
    } else if (datatype == kJson && options_.parseJsonLiterals && !options_.processingMode10) {
      try {
        result = Json{{"@value", parseJson(lexical)}, {"@type", "@json"}};
      } catch (const JsonSyntaxError&) {
        throw JsonLdError("invalid JSON literal", lexical);
      }
    } else if (!term.language.empty()) {
      result["@language"] = std::string(term.language);
      if (!term.direction.empty()) result["@direction"] = std::string(term.direction);
    } else if (datatype != rdf::kXsdString) {
      result["@type"] = datatype;
    }
    return result;
  }

  // useNativeTypes: a string, boolean, integer or double as JSON, where its lexical form is one.
  static std::optional<Json> nativeValue(const std::string& lexical, const std::string& datatype) {
    if (datatype == rdf::kXsdString) return Json(lexical);
    if (datatype == std::string(kXsdNs) + "boolean" && (lexical == "true" || lexical == "false" || lexical == "1" || lexical == "0")) {
      return Json(lexical == "true" || lexical == "1");
    }
    const char* begin = lexical.data() + (lexical.starts_with('+') ? 1 : 0);
    const char* end = lexical.data() + lexical.size();
    if (datatype == std::string(kXsdNs) + "integer" && isIntegerLexical(lexical)) {
      int64_t number = 0;
      if (std::from_chars(begin, end, number).ec == std::errc()) return Json(number);
    }
    if (datatype == std::string(kXsdNs) + "double" && !lexical.empty() &&
        lexical.find_first_not_of("0123456789+-.eE") == std::string::npos) {
      double number = 0;
      const auto [stop, ec] = std::from_chars(begin, end, number);
      if (ec == std::errc() && stop == end && std::isfinite(number)) return Json(number);
    }
    return std::nullopt;
  }


  // rdfDirection compound-literal: a blank node with rdf:direction (and
  // rdf:value, maybe rdf:language) stands for a string with a direction;
  // references to it become that value object, and the node goes.
  void makeCompoundLiterals() {
    const std::string value = std::string(kRdfNs) + "value", language = std::string(kRdfNs) + "language",
                      direction = std::string(kRdfNs) + "direction";
    for (auto& [name, nodes] : graphs_.items()) {
      std::map<std::string, Json> literals;
      for (const auto& [id, node] : nodes.items()) {
        if (!isBlankNodeId(id) || !node.contains(direction) || !node.contains(value)) continue;
        Json literal{{"@value", node[value][0].value("@value", Json())}, {"@direction", node[direction][0].value("@value", Json())}};
        if (node.contains(language)) literal["@language"] = node[language][0].value("@value", Json());
        literals[id] = literal;
      }
      for (auto& [id, node] : nodes.items()) {
        for (auto& [property, values] : node.items()) {
          if (!values.is_array()) continue;
          for (Json& v : values) {
            if (v.is_object() && v.contains("@id") && literals.contains(v["@id"].get<std::string>())) v = literals[v["@id"].get<std::string>()];
          }
        }
      }
      for (const auto& [id, literal] : literals) nodes.erase(id);
    }
  }

  // A well-formed list node: a blank node used once (in its own graph),
  // with one rdf:first, one rdf:rest and at most an rdf:type rdf:List.
  bool isListNode(const std::string& graph, const Json& node) const {
    if (!node.is_object()) return false;
    const std::string id = node["@id"].get<std::string>();
    if (!isBlankNodeId(id)) return false;
    const auto usage = referencedOnce_.find(id);
    if (usage == referencedOnce_.end() || !usage->second || usage->second->graph != graph) return false;
    size_t expected = 3;
    if (node.contains("@type")) {
      if (node["@type"] != Json::array({kList})) return false;
      ++expected;
    }
    return node.size() == expected && node.contains(kFirst) && node.contains(kRest) && node[kFirst].size() == 1 &&
           node[kRest].size() == 1;
  }

  // The list that ends in the rdf:nil at `usage`: walked back along
  // rdf:rest while the cells are well-formed list nodes, to the value that
  // becomes the @list (its head).
  Chain chainTo(Usage usage) {
    Json& nodes = graphs_[usage.graph];
    Chain chain;
    while (usage.property == kRest && nodes.contains(usage.subject) && isListNode(usage.graph, nodes[usage.subject])) {
      chain.cells.push_back(usage.subject);
      usage = *referencedOnce_.at(usage.subject);
      if (!isBlankNodeId(usage.subject)) break;
    }
    std::reverse(chain.cells.begin(), chain.cells.end());
    chain.head = usage;
    return chain;
  }

  // A chain's items, a cell's first that heads another list made that list
  // (so lists of lists come out whole, whatever order their nils came in),
  // down to kMaxListNesting; deeper lists stay rdf:first/rdf:rest nodes, so
  // that the JSON written stays within what reading it takes (and no
  // recursion here goes deeper). The chains made lists go into `made`.
  Json listOf(const Chain& chain, size_t depth, std::set<const Chain*>& made) {
    made.insert(&chain);
    Json list = Json::array();
    for (const std::string& cell : chain.cells) {
      const auto inner = chains_.find(key({chain.head.graph, cell, kFirst, 0}));
      if (inner != chains_.end() && depth < kMaxListNesting) {
        list.push_back(Json{{"@list", listOf(inner->second, depth + 1, made)}});
      } else {
        list.push_back(graphs_[chain.head.graph][cell][kFirst][0]);
      }
    }
    return list;
  }

  static std::string key(const Usage& u) { return u.graph + '\n' + u.subject + '\n' + u.property + '\n' + std::to_string(u.index); }

  void makeLists() {
    for (const auto& [name, usages] : nilUsages_) {
      for (const Usage& usage : usages) {
        Chain chain = chainTo(usage);
        chains_.emplace(key(chain.head), std::move(chain));
      }
    }
    std::set<std::pair<std::string, std::string>> cells;
    for (const auto& [at, chain] : chains_) {
      for (const std::string& cell : chain.cells) cells.insert({chain.head.graph, cell});
    }
    // Lists whose head is no cell of another list (one inside another is made
    // with it; lists that only hold each other, a cycle, stay nodes).
    std::set<const Chain*> made;
    for (const auto& [at, chain] : chains_) {
      const Usage& head = chain.head;
      if (cells.contains({head.graph, head.subject})) continue;
      Json& value = graphs_[head.graph][head.subject][head.property][head.index];
      value.erase("@id");
      value["@list"] = listOf(chain, 1, made);
    }
    for (const Chain* chain : made) {
      for (const std::string& cell : chain->cells) graphs_[chain->head.graph].erase(cell);
    }
  }


  const Options& options_;
  rdf::TermSplitter splitter_;
  Json graphs_{{"@default", Json::object()}};
  std::map<std::string, std::optional<Usage>> referencedOnce_;  // a blank node's one use, or none if used more
  std::map<std::string, std::vector<Usage>> nilUsages_;
  std::map<std::string, Chain> chains_;
  std::set<std::string> seen_;  // by the place of their head (key())
};

}  // namespace

Json fromRdf(const std::vector<Quad>& dataset, const Options& options) {
  Serializer serializer(options);
  for (const Quad& quad : dataset) serializer.add(quad);
  return serializer.finish();
}

}  // namespace gsparql::jsonld
