#include "rdf/jsonld/expansion.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "rdf/jsonld/context.h"

namespace gsparql::jsonld {
namespace {

const TermDefinition* termOf(const ActiveContext& active, const std::optional<std::string>& property) {
  return property ? active.term(*property) : nullptr;
}

bool isScalar(const Json& v) { return v.is_string() || v.is_number() || v.is_boolean(); }

// Value Expansion: a scalar as a value object, or a node reference where
// the term coerces it to @id or @vocab.
Json expandValue(const ActiveContext& active, const std::string& property, const Json& value) {
  const TermDefinition* term = active.term(property);
  const std::optional<std::string> type = term != nullptr ? term->typeMapping : std::nullopt;
  if (value.is_string() && (type == "@id" || type == "@vocab")) {
    const std::optional<std::string> iri = expandIri(active, value.get<std::string>(), true, type == "@vocab");
    return Json{{"@id", iri ? Json(*iri) : Json(nullptr)}};
  }
  Json result{{"@value", value}};
  if (type && *type != "@id" && *type != "@vocab" && *type != "@none") {
    result["@type"] = *type;
  } else if (value.is_string()) {
    const std::optional<std::string> language =
        term != nullptr && term->hasLanguage ? term->language : active.defaultLanguage;
    const std::optional<std::string> direction =
        term != nullptr && term->hasDirection ? term->direction : active.defaultDirection;
    if (language) result["@language"] = *language;
    if (direction) result["@direction"] = *direction;
  }
  return result;
}

class Expander {
 public:
  explicit Expander(const Options& options) : options_(options) {}

  Json expand(ContextPtr active, const std::optional<std::string>& property, const Json& element,
              const std::string& baseUrl, bool fromMap = false);

 private:
  struct ObjectState {
    ContextPtr active;
    ContextPtr typeScoped;
    std::optional<std::string> inputType;
    Json result = Json::object();
    std::vector<std::string> nests;
  };

  Json expandArray(const ContextPtr& active, const std::optional<std::string>& property, const Json& element,
                   const std::string& baseUrl, bool fromMap);
  Json expandObject(ContextPtr active, const std::optional<std::string>& property, const Json& element,
                    const std::string& baseUrl, bool fromMap);
  void expandEntries(ObjectState& state, const std::optional<std::string>& property, const Json& element,
                     const std::string& baseUrl);
  void expandKeyword(ObjectState& state, const std::optional<std::string>& property, const std::string& keyword,
                     const std::string& key, const Json& value, const std::string& baseUrl);
  Json keywordValue(ObjectState& state, const std::optional<std::string>& property, const std::string& keyword,
                    const Json& value, const std::string& baseUrl);
  void expandType(ObjectState& state, const Json& value);
  void expandIncluded(ObjectState& state, const std::optional<std::string>& property, const Json& value,
                      const std::string& baseUrl);
  void expandReverse(ObjectState& state, const Json& value, const std::string& baseUrl);
  Json expandTermValue(ObjectState& state, const std::string& key, const Json& value, const std::string& baseUrl);
  Json expandLanguageMap(const ActiveContext& active, const TermDefinition& term, const Json& value);
  Json expandIndexMap(const ContextPtr& active, const std::string& key, const TermDefinition& term, const Json& value,
                      const std::string& baseUrl);
  Json finish(Json result, const std::optional<std::string>& property);
  bool mode10() const { return options_.processingMode10; }
  ContextPtr scoped(const ContextPtr& active, const TermDefinition& term, ProcessFlags flags, const ContextPtr& owner);

  // Scoped contexts already applied: the same term's context on the same
  // active context gives the same result, and nodes of one shape meet them
  // again and again (a type-scoped context on each node of a type). The
  // entries keep the contexts their keys point into alive.
  struct Applied {
    ContextPtr active, owner, result;
  };
  static constexpr size_t kAppliedKept = 4096;
  std::map<std::tuple<const ActiveContext*, const TermDefinition*, bool, bool>, Applied> applied_;
  const Options& options_;
};

// A term's scoped context applied to `active` (`owner`: the context that holds the term).
ContextPtr Expander::scoped(const ContextPtr& active, const TermDefinition& term, ProcessFlags flags,
                            const ContextPtr& owner) {
  const auto key = std::make_tuple(active.get(), &term, flags.overrideProtected, flags.propagate);
  if (const auto at = applied_.find(key); at != applied_.end()) return at->second.result;
  ContextPtr result = processContext(active, *term.context, term.contextBase, flags);
  if (applied_.size() >= kAppliedKept) applied_.clear();
  applied_.emplace(key, Applied{active, owner, result});
  return result;
}

Json Expander::expand(ContextPtr active, const std::optional<std::string>& property, const Json& element,
                      const std::string& baseUrl, bool fromMap) {
  if (element.is_null()) return nullptr;
  if (isScalar(element)) {
    if (!property || *property == "@graph") return nullptr;
    if (const TermDefinition* term = termOf(*active, property); term != nullptr && term->context) {
      active = scoped(active, *term, {}, active);
    }
    return expandValue(*active, *property, element);
  }
  if (element.is_array()) return expandArray(active, property, element, baseUrl, fromMap);
  try {
    return expandObject(std::move(active), property, element, baseUrl, fromMap);
  } catch (JsonLdError& e) {
    e.locate(&element);
    throw;
  }
}

Json Expander::expandArray(const ContextPtr& active, const std::optional<std::string>& property, const Json& element,
                           const std::string& baseUrl, bool fromMap) {
  Json result = Json::array();
  const TermDefinition* term = termOf(*active, property);
  for (const Json& item : element) {
    Json expanded = expand(active, property, item, baseUrl, fromMap);
    if (term != nullptr && term->hasContainer("@list") && expanded.is_array()) expanded = Json{{"@list", expanded}};
    if (expanded.is_array()) {
      for (Json& each : expanded) result.push_back(std::move(each));
    } else if (!expanded.is_null()) {
      result.push_back(std::move(expanded));
    }
  }
  return result;
}

Json Expander::expandObject(ContextPtr active, const std::optional<std::string>& property, const Json& element,
                            const std::string& baseUrl, bool fromMap) {
  const ContextPtr propertyOwner = active;
  const TermDefinition* propertyTerm = termOf(*active, property);
  // A type-scoped context does not reach new node objects (only values and
  // a lone node reference keep it).
  if (active->previous && !fromMap) {
    bool keep = false;
    for (const auto& [key, value] : element.items()) {
      const std::optional<std::string> expanded = expandIri(*active, key, false, true);
      if (expanded == "@value" || (element.size() == 1 && expanded == "@id")) keep = true;
    }
    if (!keep) active = active->previous;
  }
  if (propertyTerm != nullptr && propertyTerm->context) {
    active = scoped(active, *propertyTerm, {.overrideProtected = true}, propertyOwner);
  }
  if (element.contains("@context")) active = processContext(active, element["@context"], baseUrl);
  ObjectState state;
  state.typeScoped = active;
  for (const auto& [key, value] : element.items()) {
    if (expandIri(*active, key, false, true) != "@type") continue;
    std::vector<std::string> types;
    for (const Json& type : asArray(value)) {
      if (type.is_string()) types.push_back(type.get<std::string>());
    }
    std::sort(types.begin(), types.end());
    for (const std::string& type : types) {
      if (const TermDefinition* term = state.typeScoped->term(type); term != nullptr && term->context) {
        active = scoped(active, *term, {.propagate = false}, state.typeScoped);
      }
    }
    if (!state.inputType && !types.empty() && asArray(value).back().is_string()) {
      state.inputType = expandIri(*state.typeScoped, asArray(value).back().get<std::string>(), true, true);
    }
  }
  state.active = active;
  expandEntries(state, property, element, baseUrl);
  return finish(std::move(state.result), property);
}

void Expander::expandEntries(ObjectState& state, const std::optional<std::string>& property, const Json& element,
                             const std::string& baseUrl) {
  for (const auto& [key, value] : element.items()) {
    if (key == "@context") continue;
    const std::optional<std::string> expanded = expandIri(*state.active, key, false, true);
    if (!expanded || (expanded->find(':') == std::string::npos && !isKeyword(*expanded))) continue;
    if (isKeyword(*expanded)) {
      if (property == "@reverse") throw JsonLdError("invalid reverse property map", key);
      expandKeyword(state, property, *expanded, key, value, baseUrl);
      continue;
    }
    const TermDefinition* term = state.active->term(key);
    Json expandedValue = expandTermValue(state, key, value, baseUrl);
    if (expandedValue.is_null()) continue;
    if (term != nullptr && term->hasContainer("@list") && !isListObject(expandedValue)) {
      expandedValue = Json{{"@list", asArray(expandedValue)}};
    }
    if (term != nullptr && term->hasContainer("@graph") && !term->hasContainer("@id") && !term->hasContainer("@index")) {
      Json graphs = Json::array();
      for (const Json& item : asArray(expandedValue)) graphs.push_back(Json{{"@graph", asArray(item)}});
      expandedValue = graphs;
    }
    if (term != nullptr && term->reverse) {
      Json& reverseMap = state.result["@reverse"];
      if (reverseMap.is_null()) reverseMap = Json::object();
      for (const Json& item : asArray(expandedValue)) {
        if (isValueObject(item) || isListObject(item)) throw JsonLdError("invalid reverse property value", key);
        addValue(reverseMap, *expanded, item);
      }
    } else {
      addValue(state.result, *expanded, expandedValue);
    }
  }
  // @nest: the entries of the nested objects, as if they were the element's.
  std::vector<std::string> nests = std::move(state.nests);
  state.nests.clear();
  std::sort(nests.begin(), nests.end());
  for (const std::string& nestKey : nests) {
    const ContextPtr outer = state.active;
    if (const TermDefinition* term = outer->term(nestKey); term != nullptr && term->context) {
      state.active = scoped(outer, *term, {.overrideProtected = true}, outer);
    }
    for (const Json& nested : asArray(element[nestKey])) {
      if (!nested.is_object()) throw JsonLdError("invalid @nest value", nested.dump());
      for (const auto& [key, value] : nested.items()) {
        if (expandIri(*state.active, key, false, true) == "@value") throw JsonLdError("invalid @nest value", key);
      }
      expandEntries(state, property, nested, baseUrl);
    }
    state.active = outer;
  }
}

void Expander::expandKeyword(ObjectState& state, const std::optional<std::string>& property, const std::string& keyword,
                             const std::string& key, const Json& value, const std::string& baseUrl) {
  if (state.result.contains(keyword) && keyword != "@included" && keyword != "@type") {
    throw JsonLdError("colliding keywords", keyword);
  }
  if (keyword == "@type") return expandType(state, value);
  if (keyword == "@included") return expandIncluded(state, property, value, baseUrl);
  if (keyword == "@reverse") return expandReverse(state, value, baseUrl);
  if (keyword == "@nest") return state.nests.push_back(key);
  const Json expanded = keywordValue(state, property, keyword, value, baseUrl);
  // A null @id (shaped like a keyword) stays, and leaves the node out of the
  // statements; a null @value makes the value object nothing.
  if (!expanded.is_null() || keyword == "@id" || keyword == "@value") state.result[keyword] = expanded;
}

// The expanded value of @id, @value, @language, @direction, @index, @graph,
// @list or @set; null for none (and for framing's keywords).
Json Expander::keywordValue(ObjectState& state, const std::optional<std::string>& property, const std::string& keyword,
                            const Json& value, const std::string& baseUrl) {
  if (keyword == "@id") {
    if (!value.is_string()) throw JsonLdError("invalid @id value", value.dump());
    const std::optional<std::string> iri = expandIri(*state.active, value.get<std::string>(), true, false);
    return iri ? Json(*iri) : Json(nullptr);
  }
  if (keyword == "@value") {
    const bool json = state.inputType == "@json";
    if ((json && mode10()) || (!json && !value.is_null() && !isScalar(value))) {
      throw JsonLdError("invalid value object value", value.dump());
    }
    return value;
  }
  if (keyword == "@language") {
    if (!value.is_string()) throw JsonLdError("invalid language-tagged string", value.dump());
    return value;
  }
  if (keyword == "@direction") {
    if (mode10()) return nullptr;
    if (value != "ltr" && value != "rtl") throw JsonLdError("invalid base direction", value.dump());
    return value;
  }
  if (keyword == "@index") {
    if (!value.is_string()) throw JsonLdError("invalid @index value", value.dump());
    return value;
  }
  if (keyword == "@graph") return asArray(expand(state.active, "@graph", value, baseUrl));
  if (keyword == "@list") return !property || *property == "@graph" ? Json() : asArray(expand(state.active, property, value, baseUrl));
  if (keyword == "@set") return expand(state.active, property, value, baseUrl);
  return nullptr;
}

// @type: IRIs expanded in the type-scoped context, added to any the element has already.
void Expander::expandType(ObjectState& state, const Json& value) {
  const bool strings = value.is_string() ||
                       (value.is_array() && std::all_of(value.begin(), value.end(), [](const Json& v) { return v.is_string(); }));
  if (!strings) throw JsonLdError("invalid type value", value.dump());
  Json types = Json::array();
  for (const Json& type : asArray(value)) {
    const std::optional<std::string> iri = expandIri(*state.typeScoped, type.get<std::string>(), true, true);
    if (iri) types.push_back(*iri);
  }
  if (state.result.contains("@type")) {
    addValue(state.result, "@type", types);
  } else if (value.is_array()) {
    state.result["@type"] = types;
  } else if (!types.empty()) {
    state.result["@type"] = types[0];
  }
}

// @included: node objects only, added to any the element has already.
void Expander::expandIncluded(ObjectState& state, const std::optional<std::string>& property, const Json& value,
                              const std::string& baseUrl) {
  if (mode10()) return;
  const Json expanded = expand(state.active, property, value, baseUrl);
  if (expanded.is_null()) throw JsonLdError("invalid @included value", value.dump());
  for (const Json& item : asArray(expanded)) {
    if (!item.is_object() || isValueObject(item) || isListObject(item) || item.contains("@set")) {
      throw JsonLdError("invalid @included value", item.dump());
    }
  }
  addValue(state.result, "@included", expanded);
}

// @reverse: its properties point at this node; an @reverse inside turns them round again.
void Expander::expandReverse(ObjectState& state, const Json& value, const std::string& baseUrl) {
  if (!value.is_object()) throw JsonLdError("invalid @reverse value", value.dump());
  const Json expanded = expand(state.active, "@reverse", value, baseUrl);
  if (!expanded.is_object()) return;
  for (const auto& [property, items] : expanded.items()) {
    if (property == "@reverse") {
      for (const auto& [reversed, values] : items.items()) addValue(state.result, reversed, values);
      continue;
    }
    Json& reverseMap = state.result["@reverse"];
    if (reverseMap.is_null()) reverseMap = Json::object();
    for (const Json& item : asArray(items)) {
      if (isValueObject(item) || isListObject(item)) throw JsonLdError("invalid reverse property value", property);
      addValue(reverseMap, property, item);
    }
  }
}

Json Expander::expandTermValue(ObjectState& state, const std::string& key, const Json& value,
                               const std::string& baseUrl) {
  const TermDefinition* term = state.active->term(key);
  if (term != nullptr && term->typeMapping == "@json") return Json{{"@value", value}, {"@type", "@json"}};
  if (term != nullptr && term->hasContainer("@language") && value.is_object()) {
    return expandLanguageMap(*state.active, *term, value);
  }
  if (term != nullptr && value.is_object() &&
      (term->hasContainer("@index") || term->hasContainer("@type") || term->hasContainer("@id"))) {
    return expandIndexMap(state.active, key, *term, value, baseUrl);
  }
  return expand(state.active, key, value, baseUrl);
}

Json Expander::expandLanguageMap(const ActiveContext& active, const TermDefinition& term, const Json& value) {
  Json result = Json::array();
  const std::optional<std::string> direction = term.hasDirection ? term.direction : active.defaultDirection;
  for (const auto& [language, languageValue] : value.items()) {
    for (const Json& item : asArray(languageValue)) {
      if (item.is_null()) continue;
      if (!item.is_string()) throw JsonLdError("invalid language map value", item.dump());
      Json v{{"@value", item}};
      if (language != "@none" && expandIri(active, language, false, true) != "@none") v["@language"] = language;
      if (direction) v["@direction"] = *direction;
      result.push_back(std::move(v));
    }
  }
  return result;
}

// @index, @id and @type maps: each key becomes the index, @id or a @type of its values.
Json Expander::expandIndexMap(const ContextPtr& active, const std::string& key, const TermDefinition& term,
                              const Json& value, const std::string& baseUrl) {
  Json result = Json::array();
  const std::string indexKey = term.index.value_or("@index");
  const bool idOrType = term.hasContainer("@id") || term.hasContainer("@type");
  for (const auto& [index, indexValue] : value.items()) {
    ContextPtr mapContext = idOrType && active->previous ? active->previous : active;
    if (term.hasContainer("@type")) {
      if (const TermDefinition* typeTerm = mapContext->term(index); typeTerm != nullptr && typeTerm->context) {
        mapContext = scoped(mapContext, *typeTerm, {}, mapContext);
      }
    } else {
      mapContext = active;
    }
    const std::optional<std::string> expandedIndex = expandIri(*active, index, false, true);
    const Json items = asArray(expand(mapContext, key, asArray(indexValue), baseUrl, true));
    for (Json item : items) {
      if (term.hasContainer("@graph") && !isGraphObject(item)) item = Json{{"@graph", asArray(item)}};
      if (term.hasContainer("@index") && indexKey != "@index" && expandedIndex != "@none") {
        const Json reExpanded = expandValue(*active, indexKey, index);
        const std::optional<std::string> indexProperty = expandIri(*active, indexKey, false, true);
        if (isValueObject(item)) throw JsonLdError("invalid value object", "a value in a property-valued index");
        Json values = Json::array({reExpanded});
        if (indexProperty && item.contains(*indexProperty)) {
          for (const Json& v : asArray(item[*indexProperty])) values.push_back(v);
        }
        if (indexProperty) item[*indexProperty] = values;
      } else if (term.hasContainer("@index") && !item.contains("@index") && expandedIndex != "@none") {
        item["@index"] = index;
      } else if (term.hasContainer("@id") && !item.contains("@id") && expandedIndex != "@none") {
        const std::optional<std::string> id = expandIri(*active, index, true, false);
        item["@id"] = id ? Json(*id) : Json(nullptr);
      } else if (term.hasContainer("@type") && expandedIndex != "@none") {
        Json types = Json::array();
        if (expandedIndex) types.push_back(*expandedIndex);
        for (const Json& t : asArray(item.value("@type", Json()))) types.push_back(t);
        item["@type"] = types;
      }
      result.push_back(std::move(item));
    }
  }
  return result;
}

// The checks and simplifications once all of an object's entries are expanded.
Json Expander::finish(Json result, const std::optional<std::string>& property) {
  if (result.contains("@value")) {
    for (const auto& [key, v] : result.items()) {
      if (key != "@direction" && key != "@index" && key != "@language" && key != "@type" && key != "@value") {
        throw JsonLdError("invalid value object", "it has " + key);
      }
    }
    if (result.contains("@type") && (result.contains("@language") || result.contains("@direction"))) {
      throw JsonLdError("invalid value object", "@type with @language or @direction");
    }
    const Json& value = result["@value"];
    if (result.value("@type", Json()) == "@json") {
      // any JSON
    } else if (value.is_null() || (value.is_array() && value.empty())) {
      return nullptr;
    } else if (!value.is_string() && result.contains("@language")) {
      throw JsonLdError("invalid language-tagged value", value.dump());
    } else if (result.contains("@type") && (!result["@type"].is_string() || !isWellFormedIri(result["@type"].get<std::string>()))) {
      throw JsonLdError("invalid typed value", result["@type"].dump());
    }
  } else if (result.contains("@type") && !result["@type"].is_array()) {
    result["@type"] = Json::array({result["@type"]});
  } else if (result.contains("@set") || result.contains("@list")) {
    if (result.size() > 2 || (result.size() == 2 && !result.contains("@index"))) {
      throw JsonLdError("invalid set or list object", result.dump());
    }
    if (result.contains("@set")) return result["@set"];
  }
  if (result.size() == 1 && result.contains("@language")) return nullptr;
  if (!property || *property == "@graph") {
    if (result.empty() || result.contains("@value") || result.contains("@list") ||
        (result.size() == 1 && result.contains("@id"))) {
      return nullptr;
    }
  }
  return result;
}

}  // namespace

Json expand(const Json& document, const Options& options) {
  ContextPtr active = initialContext(options);
  const std::string base = options.base.value_or("");
  if (options.expandContext) {
    const Json& context = options.expandContext->contains("@context") ? (*options.expandContext)["@context"]
                                                                        : *options.expandContext;
    active = processContext(active, context, base);
  }
  Json expanded = Expander(options).expand(active, std::nullopt, document, base);
  if (expanded.is_object() && expanded.size() == 1 && expanded.contains("@graph")) expanded = expanded["@graph"];
  return asArray(expanded);
}

}  // namespace gsparql::jsonld
