#include "rdf/jsonld/compaction.h"

#include <cstdint>
#include <set>

#include "rdf/term.h"

namespace gsparql::jsonld {
namespace {

// The schemes of IRIs written in full that a prefix of that name would
// capture on reading ("urn:x" read with a prefix "urn").
void collectSchemes(const Json& value, std::set<std::string>& schemes) {
  const auto note = [&](const std::string& iri) {
    const size_t colon = iri.find(':');
    if (colon != std::string::npos && iri.compare(colon + 1, 2, "//") != 0) schemes.insert(iri.substr(0, colon));
  };
  if (value.is_array()) {
    for (const Json& item : value) collectSchemes(item, schemes);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [key, item] : value.items()) {
    if (key == "@value") continue;
    if (!isKeyword(key)) note(key);
    if ((key == "@id" || key == "@type") && item.is_string()) note(item.get<std::string>());
    if (key == "@type" && item.is_array()) {
      for (const Json& type : item) note(type.get<std::string>());
    }
    collectSchemes(item, schemes);
  }
}

bool isCanonicalInteger(std::string_view s) {
  const std::string_view digits = s.starts_with('-') ? s.substr(1) : s;
  if (digits.empty() || digits.size() > 18 || (digits[0] == '0' && (digits.size() > 1 || s.size() > 1))) return false;
  return digits.find_first_not_of("0123456789") == std::string_view::npos;
}

class Compactor {
 public:
  Compactor(const Json& expanded, const PrefixList& prefixes) {
    std::set<std::string> schemes;
    collectSchemes(expanded, schemes);
    std::set<std::string> names;
    for (const auto& [name, ns] : prefixes) {
      const bool usable = !name.empty() && name != "_" && name[0] != '@' && !ns.empty() &&
                          name.find_first_of(":/") == std::string::npos && !schemes.contains(name) &&
                          names.insert(name).second;
      if (!usable) continue;
      prefixes_.emplace_back(name, ns);
    }
  }

  // The context declares the prefixes used.
  Json document(const Json& expanded) {
    Json graph = Json::array();
    for (const Json& node : expanded) graph.push_back(compactNode(node));
    Json context = Json::object();
    for (const auto& [name, ns] : prefixes_) {
      // JSON-LD 1.1 takes a term as a prefix only if its IRI ends in a gen-delim, unless told.
      if (used_.contains(name)) context[name] = endsWithGenDelim(ns) ? Json(ns) : Json{{"@id", ns}, {"@prefix", true}};
    }
    Json out = Json::object();
    if (!context.empty()) out["@context"] = context;
    out["@graph"] = graph;
    return out;
  }

 private:
  std::string compactIri(const std::string& iri) {
    std::string best = iri;
    const std::string* prefix = nullptr;
    for (const auto& [name, ns] : prefixes_) {
      if (!iri.starts_with(ns) || iri.compare(ns.size(), 2, "//") == 0) continue;
      std::string candidate = name + ":" + iri.substr(ns.size());
      if (candidate.size() < best.size()) {
        best = std::move(candidate);
        prefix = &name;
      }
    }
    if (prefix != nullptr) used_.insert(*prefix);
    return best;
  }

  static Json single(Json values) { return values.size() == 1 ? values[0] : values; }

  Json compactNode(const Json& node) {
    Json out = Json::object();
    for (const auto& [key, values] : node.items()) {
      if (key == "@id") {
        out["@id"] = compactIri(values.get<std::string>());
      } else if (key == "@type") {
        Json types = Json::array();
        for (const Json& type : values) types.push_back(compactIri(type.get<std::string>()));
        out["@type"] = single(types);
      } else if (key == "@graph") {
        Json graph = Json::array();
        for (const Json& member : values) graph.push_back(compactNode(member));
        out["@graph"] = graph;
      } else {
        Json compacted = Json::array();
        for (const Json& value : values) compacted.push_back(compactValue(value));
        out[compactIri(key)] = single(compacted);
      }
    }
    return out;
  }

  Json compactValue(const Json& value) {
    if (isListObject(value)) {
      Json items = Json::array();
      for (const Json& item : value["@list"]) items.push_back(compactValue(item));
      return Json{{"@list", items}};
    }
    if (!isValueObject(value)) return Json{{"@id", compactIri(value["@id"].get<std::string>())}};
    const Json& lexical = value["@value"];
    if (value.contains("@language") || !lexical.is_string()) return value;
    if (!value.contains("@type")) return lexical;
    const std::string type = value["@type"].get<std::string>();
    const std::string& text = lexical.get_ref<const std::string&>();
    if (type == std::string(kXsdNs) + "boolean" && (text == "true" || text == "false")) return text == "true";
    if (type == std::string(kXsdNs) + "integer" && isCanonicalInteger(text)) return std::stoll(text);
    return Json{{"@value", lexical}, {"@type", type == "@json" ? type : compactIri(type)}};
  }

  PrefixList prefixes_;
  std::set<std::string> used_;
};

}  // namespace

Json compactForOutput(const Json& expanded, const PrefixList& prefixes) {
  return Compactor(expanded, prefixes).document(expanded);
}

}  // namespace gsparql::jsonld
