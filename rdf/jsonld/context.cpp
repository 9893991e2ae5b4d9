#include "rdf/jsonld/context.h"

#include <algorithm>
#include <set>

#include "rdf/iri.h"

namespace gsparql::jsonld {
namespace {

// Remote contexts one context may pull in, directly or not; more is a loop.
constexpr size_t kMaxRemoteContexts = 32;
// Terms whose definitions wait on each other (a: "b:x", b: "c:x", ...).
// Each waits in a recursion six calls deep: 512 overflowed the 8 MB stack
// under ASan; real contexts chain a few.
constexpr size_t kMaxTermChain = 128;

const std::set<std::string, std::less<>> kTermEntries = {"@id", "@reverse", "@container", "@context", "@direction",
                                                         "@index", "@language", "@nest", "@prefix", "@protected",
                                                         "@type"};
const std::set<std::string, std::less<>> kContextKeywords = {"@base", "@direction", "@import", "@language",
                                                             "@propagate", "@protected", "@version", "@vocab"};

std::string resolve(const std::optional<std::string>& base, const std::string& ref) {
  return base ? rdf::resolveIri(*base, ref) : ref;
}

// Builds one local context's term definitions into `result`: terms are
// defined on demand, as another term's definition refers to them.
class TermBuilder {
 public:
  TermBuilder(ActiveContext& result, const Json& local, const std::string& baseUrl, bool overrideProtected,
              const std::vector<std::string>& remoteContexts)
      : result_(result), local_(local), baseUrl_(baseUrl), overrideProtected_(overrideProtected),
        remoteContexts_(remoteContexts) {}

  void defineAll() {
    const bool protectedDefault = protectedEntry();
    for (const auto& [key, value] : local_.items()) {
      if (!kContextKeywords.contains(key)) define(key, protectedDefault);
    }
  }

  std::optional<std::string> expand(const std::string& value, bool documentRelative, bool vocab) {
    return expandIriIn(result_, value, documentRelative, vocab, this);
  }

  // A term of this local context is defined before it is used (a cycle if it is being defined).
  void defineIfLocal(const std::string& term) {
    const auto at = defined_.find(term);
    if (local_.contains(term) && (at == defined_.end() || !at->second)) define(term, protectedEntry());
  }

  static std::optional<std::string> expandIriIn(const ActiveContext& active, const std::string& value,
                                                bool documentRelative, bool vocab, TermBuilder* builder);

 private:
  bool protectedEntry() const {
    if (!local_.contains("@protected")) return false;
    if (!local_["@protected"].is_boolean()) throw JsonLdError("invalid @protected value", local_["@protected"].dump());
    return local_["@protected"].get<bool>();
  }
  bool mode10() const { return result_.options->processingMode10; }

  void define(const std::string& term, bool protectedDefault);
  void defineTypeTerm(const Json& value, bool protectedDefault);
  TermDefinition build(const std::string& term, const Json& value, bool simpleTerm, bool protectedDefault);
  void setType(TermDefinition& definition, const std::string& term, const Json& type);
  void setReverse(TermDefinition& definition, const std::string& term, const Json& value);
  void setIri(TermDefinition& definition, const std::string& term, const Json& value, bool simpleTerm);
  void setContainer(TermDefinition& definition, const Json& value);
  void setRest(TermDefinition& definition, const std::string& term, const Json& value);
  void setIndex(TermDefinition& definition, const Json& index);
  void setScopedContext(TermDefinition& definition, const Json& context);
  void setLanguage(TermDefinition& definition, const Json& value);
  void setNest(TermDefinition& definition, const Json& nest);
  void setPrefix(TermDefinition& definition, const std::string& term, const Json& prefix);

  ActiveContext& result_;
  const Json& local_;
  const std::string& baseUrl_;
  bool overrideProtected_;
  const std::vector<std::string>& remoteContexts_;
  std::map<std::string, bool> defined_;  // false: being defined (a cycle if met again)
  size_t defining_ = 0;                  // definitions under way, one inside another
};

std::optional<std::string> TermBuilder::expandIriIn(const ActiveContext& active, const std::string& value,
                                                    bool documentRelative, bool vocab, TermBuilder* builder) {
  if (isKeyword(value)) return value;
  if (looksLikeKeyword(value)) return std::nullopt;
  if (builder != nullptr) builder->defineIfLocal(value);
  if (const TermDefinition* term = active.term(value)) {
    if (term->iri && isKeyword(*term->iri)) return term->iri;
    if (vocab) return term->iri;
  }
  const size_t colon = value.find(':', 1);
  if (colon != std::string::npos) {
    const std::string prefix = value.substr(0, colon);
    const std::string suffix = value.substr(colon + 1);
    if (prefix == "_" || suffix.starts_with("//")) return value;
    if (builder != nullptr) builder->defineIfLocal(prefix);
    if (const TermDefinition* term = active.term(prefix); term != nullptr && term->iri && term->prefix) {
      return *term->iri + suffix;
    }
    if (hasScheme(value)) return value;
  }
  if (vocab && active.vocab) return *active.vocab + value;
  if (documentRelative) return resolve(active.base, value);
  return value;
}

void TermBuilder::define(const std::string& term, bool protectedDefault) {
  if (auto at = defined_.find(term); at != defined_.end()) {
    if (at->second) return;
    throw JsonLdError("cyclic IRI mapping", term);
  }
  if (term.empty()) throw JsonLdError("invalid term definition", "an empty term");
  // A term's definition may define the terms it uses first, and theirs: a
  // chain of them is bounded, so that a long one is an error, not a stack overflow.
  if (defining_ >= kMaxTermChain) {
    throw JsonLdError("invalid term definition",
                      term + " is defined through more than " + std::to_string(kMaxTermChain) + " other terms");
  }
  ++defining_;
  const struct Done {
    size_t& defining;
    ~Done() { --defining; }
  } done{defining_};
  defined_[term] = false;
  const Json& value = local_[term];
  if (term == "@type" && !mode10()) return defineTypeTerm(value, protectedDefault);
  if (isKeyword(term)) throw JsonLdError("keyword redefinition", term);
  if (looksLikeKeyword(term)) {  // reserved: ignored
    defined_[term] = true;
    return;
  }
  std::optional<TermDefinition> previous;
  if (auto old = result_.terms.find(term); old != result_.terms.end()) {
    previous = old->second;
    result_.terms.erase(old);
  }
  TermDefinition definition;
  if (value.is_null()) {
    definition = build(term, Json{{"@id", nullptr}}, false, protectedDefault);
  } else if (value.is_string()) {
    definition = build(term, Json{{"@id", value}}, true, protectedDefault);
  } else if (value.is_object()) {
    definition = build(term, value, false, protectedDefault);
  } else {
    throw JsonLdError("invalid term definition", term);
  }
  if (defined_[term]) return;  // a term ignored for an @id shaped like a keyword
  if (!overrideProtected_ && previous && previous->isProtected) {
    if (!definition.sameAs(*previous)) throw JsonLdError("protected term redefinition", term);
    definition = *previous;
  }
  result_.terms[term] = std::move(definition);
  defined_[term] = true;
}

// 1.1 lets @type have a container (@set) and be protected, nothing else.
void TermBuilder::defineTypeTerm(const Json& value, bool protectedDefault) {
  if (!value.is_object() || value.empty()) throw JsonLdError("keyword redefinition", "@type");
  for (const auto& [key, entry] : value.items()) {
    if (key == "@container" && entry == "@set") continue;
    if (key == "@protected" && entry.is_boolean()) continue;
    throw JsonLdError("keyword redefinition", "@type");
  }
  TermDefinition definition;
  definition.iri = "@type";
  if (value.contains("@container")) definition.container = {"@set"};
  definition.isProtected = value.value("@protected", protectedDefault);
  const auto old = result_.terms.find("@type");
  if (!overrideProtected_ && old != result_.terms.end() && old->second.isProtected && !definition.sameAs(old->second)) {
    throw JsonLdError("protected term redefinition", "@type");
  }
  result_.terms["@type"] = definition;
  defined_["@type"] = true;
}

TermDefinition TermBuilder::build(const std::string& term, const Json& value, bool simpleTerm, bool protectedDefault) {
  TermDefinition definition;
  for (const auto& [key, entry] : value.items()) {
    if (!kTermEntries.contains(key)) throw JsonLdError("invalid term definition", term + " has " + key);
  }
  definition.isProtected = protectedDefault;
  if (value.contains("@protected")) {
    if (mode10()) throw JsonLdError("invalid term definition", "@protected in json-ld-1.0");
    if (!value["@protected"].is_boolean()) throw JsonLdError("invalid @protected value", term);
    definition.isProtected = value["@protected"].get<bool>();
  }
  if (value.contains("@type")) setType(definition, term, value["@type"]);
  if (value.contains("@reverse")) {
    setReverse(definition, term, value);
    return definition;
  }
  setIri(definition, term, value, simpleTerm);
  if (value.contains("@container")) setContainer(definition, value["@container"]);
  setRest(definition, term, value);
  return definition;
}

// A type mapping: an IRI, or @id, @vocab, @json, @none.
void TermBuilder::setType(TermDefinition& definition, const std::string& term, const Json& type) {
  if (!type.is_string()) throw JsonLdError("invalid type mapping", term);
  const std::optional<std::string> expanded = expand(type.get<std::string>(), false, true);
  const bool keywordType = expanded == "@id" || expanded == "@vocab" ||
                           (!mode10() && (expanded == "@json" || expanded == "@none"));
  if (!expanded || (!keywordType && (isKeyword(*expanded) || !hasScheme(*expanded)))) {
    throw JsonLdError("invalid type mapping", term + ": " + type.dump());
  }
  definition.typeMapping = expanded;
}

// A reverse property: its IRI, and at most an @set or @index container.
void TermBuilder::setReverse(TermDefinition& definition, const std::string& term, const Json& value) {
  if (value.contains("@id") || value.contains("@nest")) throw JsonLdError("invalid reverse property", term);
  if (!value["@reverse"].is_string()) throw JsonLdError("invalid IRI mapping", term);
  const std::string reverse = value["@reverse"].get<std::string>();
  if (looksLikeKeyword(reverse)) {
    defined_[term] = true;  // ignored
    return;
  }
  definition.iri = expand(reverse, false, true);
  if (!definition.iri || definition.iri->find(':') == std::string::npos) throw JsonLdError("invalid IRI mapping", term);
  definition.reverse = true;
  if (value.contains("@container")) {
    const Json& container = value["@container"];
    if (!container.is_null() && container != "@set" && container != "@index") {
      throw JsonLdError("invalid reverse property", term);
    }
    if (container.is_string()) definition.container = {container.get<std::string>()};
  }
  setRest(definition, term, value);
}

void TermBuilder::setIri(TermDefinition& definition, const std::string& term, const Json& value, bool simpleTerm) {
  if (value.contains("@id") && value["@id"] != Json(term)) {
    const Json& id = value["@id"];
    if (id.is_null()) return;
    if (!id.is_string()) throw JsonLdError("invalid IRI mapping", term);
    const std::string idText = id.get<std::string>();
    if (!isKeyword(idText) && looksLikeKeyword(idText)) {
      defined_[term] = true;  // ignored
      return;
    }
    definition.iri = expand(idText, false, true);
    if (!definition.iri || (!isKeyword(*definition.iri) && definition.iri->find(':') == std::string::npos)) {
      throw JsonLdError("invalid IRI mapping", term + ": " + id.dump());
    }
    if (definition.iri == "@context") throw JsonLdError("invalid keyword alias", term);
    const size_t innerColon = term.find(':', 1);
    if ((innerColon != std::string::npos && innerColon + 1 < term.size()) || term.find('/') != std::string::npos) {
      defined_[term] = true;
      const std::optional<std::string> asIri = expand(term, false, true);
      defined_[term] = false;
      if (asIri != definition.iri) throw JsonLdError("invalid IRI mapping", term + " is not " + *definition.iri);
    }
    if (term.find(':') == std::string::npos && term.find('/') == std::string::npos && simpleTerm &&
        (endsWithGenDelim(*definition.iri) || isBlankNodeId(*definition.iri))) {
      definition.prefix = true;
    }
    return;
  }
  if (const size_t colon = term.find(':', 1); colon != std::string::npos) {
    const std::string prefix = term.substr(0, colon);
    defineIfLocal(prefix);
    const TermDefinition* prefixTerm = result_.term(prefix);
    definition.iri = prefixTerm != nullptr && prefixTerm->iri ? *prefixTerm->iri + term.substr(colon + 1) : term;
  } else if (term.find('/') != std::string::npos) {
    definition.iri = expandIriIn(result_, term, false, true, nullptr);
    if (!definition.iri || !hasScheme(*definition.iri)) throw JsonLdError("invalid IRI mapping", term);
  } else if (term == "@type") {
    definition.iri = "@type";
  } else {
    if (!result_.vocab) throw JsonLdError("invalid IRI mapping", term + " has no IRI and there is no @vocab");
    definition.iri = *result_.vocab + term;
  }
}

void TermBuilder::setContainer(TermDefinition& definition, const Json& value) {
  static const std::set<std::string, std::less<>> kKinds = {"@graph", "@id", "@index", "@language",
                                                            "@list", "@set", "@type"};
  if (mode10() && (!value.is_string() || value == "@graph" || value == "@id" || value == "@type")) {
    throw JsonLdError("invalid container mapping", value.dump());
  }
  std::set<std::string> kinds;
  for (const Json& item : asArray(value)) {
    if (!item.is_string() || !kKinds.contains(item.get<std::string>())) {
      throw JsonLdError("invalid container mapping", value.dump());
    }
    kinds.insert(item.get<std::string>());
  }
  const auto has = [&](const char* k) { return kinds.contains(k); };
  bool valid = kinds.size() == 1;
  if (!valid && !kinds.empty() && !has("@list")) {
    // @set with any other; @graph with @id or @index (and @set).
    std::set<std::string> rest = kinds;
    rest.erase("@set");
    if (has("@graph")) {
      rest.erase("@graph");
      valid = rest.size() <= 1 && (rest.empty() || rest.contains("@id") || rest.contains("@index"));
    } else {
      valid = rest.size() == 1 && has("@set");
    }
  }
  if (!valid || value.is_object()) throw JsonLdError("invalid container mapping", value.dump());
  definition.container.assign(kinds.begin(), kinds.end());
  if (has("@type")) {
    if (!definition.typeMapping) definition.typeMapping = "@id";
    if (definition.typeMapping != "@id" && definition.typeMapping != "@vocab") {
      throw JsonLdError("invalid type mapping", "a @type container with " + *definition.typeMapping);
    }
  }
}

// @index, @context, @language, @direction, @nest, @prefix.
void TermBuilder::setRest(TermDefinition& definition, const std::string& term, const Json& value) {
  if (value.contains("@index")) setIndex(definition, value["@index"]);
  if (value.contains("@context")) setScopedContext(definition, value["@context"]);
  if (!value.contains("@type")) setLanguage(definition, value);
  if (value.contains("@nest")) setNest(definition, value["@nest"]);
  if (value.contains("@prefix")) setPrefix(definition, term, value["@prefix"]);
}

// A property-valued index: the property (a term or IRI) that holds the index.
void TermBuilder::setIndex(TermDefinition& definition, const Json& index) {
  if (mode10() || !definition.hasContainer("@index")) throw JsonLdError("invalid term definition", "@index");
  if (!index.is_string()) throw JsonLdError("invalid term definition", "@index " + index.dump());
  const std::optional<std::string> expanded = expand(index.get<std::string>(), false, true);
  if (!expanded || isKeyword(*expanded) || !hasScheme(*expanded)) {
    throw JsonLdError("invalid term definition", "@index " + index.dump());
  }
  definition.index = index.get<std::string>();
}

// A scoped context: checked now (it must process), applied where the term is used.
void TermBuilder::setScopedContext(TermDefinition& definition, const Json& context) {
  if (mode10()) throw JsonLdError("invalid term definition", "@context in json-ld-1.0");
  try {
    processContext(std::make_shared<ActiveContext>(result_), context, baseUrl_,
                   {.overrideProtected = true, .validateScoped = false}, remoteContexts_);
  } catch (const JsonLdError& e) {
    throw JsonLdError("invalid scoped context", e.what());
  }
  definition.context = context;
  definition.contextBase = baseUrl_;
}

// @language and @direction of a term without @type (null is a value: none).
void TermBuilder::setLanguage(TermDefinition& definition, const Json& value) {
  if (value.contains("@language")) {
    const Json& language = value["@language"];
    if (!language.is_null() && !language.is_string()) throw JsonLdError("invalid language mapping", language.dump());
    definition.hasLanguage = true;
    if (language.is_string()) definition.language = language.get<std::string>();
  }
  if (value.contains("@direction")) {
    const Json& direction = value["@direction"];
    if (!direction.is_null() && direction != "ltr" && direction != "rtl") {
      throw JsonLdError("invalid base direction", direction.dump());
    }
    definition.hasDirection = true;
    if (direction.is_string()) definition.direction = direction.get<std::string>();
  }
}

void TermBuilder::setNest(TermDefinition& definition, const Json& nest) {
  if (mode10()) throw JsonLdError("invalid term definition", "@nest in json-ld-1.0");
  if (!nest.is_string() || (isKeyword(nest.get<std::string>()) && nest != "@nest")) {
    throw JsonLdError("invalid @nest value", nest.dump());
  }
  definition.nest = nest.get<std::string>();
}

void TermBuilder::setPrefix(TermDefinition& definition, const std::string& term, const Json& prefix) {
  if (mode10() || term.find_first_of(":/") != std::string::npos) {
    throw JsonLdError("invalid term definition", "@prefix on " + term);
  }
  if (!prefix.is_boolean()) throw JsonLdError("invalid @prefix value", prefix.dump());
  definition.prefix = prefix.get<bool>();
  if (definition.prefix && definition.iri && isKeyword(*definition.iri)) {
    throw JsonLdError("invalid term definition", "a keyword as a prefix");
  }
}

// A context document's @context, from the document loader.
RemoteDocument loadContext(const Options& options, const std::string& url, const char* failure) {
  if (!options.documentLoader) {
    throw JsonLdError(failure, url + ": remote contexts are never fetched (map the URL to a local file)");
  }
  RemoteDocument remote;
  try {
    remote = options.documentLoader(url);
  } catch (const JsonLdError& e) {
    throw JsonLdError(failure, e.detail());
  }
  if (!remote.document.is_object() || !remote.document.contains("@context")) {
    throw JsonLdError("invalid remote context", url + " has no @context");
  }
  return remote;
}

// @import: the imported context's entries, under the local ones.
Json withImport(const ActiveContext& result, const Json& context, const std::string& baseUrl) {
  if (result.options->processingMode10) throw JsonLdError("invalid context entry", "@import in json-ld-1.0");
  const Json& import = context["@import"];
  if (!import.is_string()) throw JsonLdError("invalid @import value", import.dump());
  const std::string url = rdf::resolveIri(baseUrl, import.get<std::string>());
  const Json imported = loadContext(*result.options, url, "loading remote context failed").document["@context"];
  if (!imported.is_object()) throw JsonLdError("invalid remote context", url + ": its @context is not an object");
  if (imported.contains("@import")) throw JsonLdError("invalid context entry", url + " has @import");
  Json merged = imported;
  for (const auto& [key, value] : context.items()) merged[key] = value;
  merged.erase("@import");
  return merged;
}

// @base: a context's own only (a remote context's is ignored); relative to the base before it.
void applyBase(ActiveContext& result, const Json& base) {
  if (base.is_null()) {
    result.base.reset();
  } else if (!base.is_string()) {
    throw JsonLdError("invalid base IRI", base.dump());
  } else if (hasScheme(base.get<std::string>())) {
    result.base = base.get<std::string>();
  } else if (result.base) {
    result.base = rdf::resolveIri(*result.base, base.get<std::string>());
  } else {
    throw JsonLdError("invalid base IRI", base.dump() + " is relative and there is no base");
  }
}

// @vocab: an IRI, a blank node identifier, or (1.1) relative to the vocabulary or base before it.
void applyVocab(ActiveContext& result, const Json& vocab) {
  if (vocab.is_null()) {
    result.vocab.reset();
    return;
  }
  if (!vocab.is_string()) throw JsonLdError("invalid vocab mapping", vocab.dump());
  result.vocab = TermBuilder::expandIriIn(result, vocab.get<std::string>(), true, true, nullptr);
  if (!result.vocab ||
      (result.options->processingMode10 && !hasScheme(*result.vocab) && !isBlankNodeId(*result.vocab))) {
    throw JsonLdError("invalid vocab mapping", vocab.dump());
  }
}

// @language and @direction: the defaults of strings (null: none).
void applyLanguage(ActiveContext& result, const Json& context) {
  if (context.contains("@language")) {
    const Json& language = context["@language"];
    if (!language.is_null() && !language.is_string()) throw JsonLdError("invalid default language", language.dump());
    result.defaultLanguage = language.is_string() ? std::optional(language.get<std::string>()) : std::nullopt;
  }
  if (context.contains("@direction")) {
    if (result.options->processingMode10) throw JsonLdError("invalid context entry", "@direction in json-ld-1.0");
    const Json& direction = context["@direction"];
    if (!direction.is_null() && direction != "ltr" && direction != "rtl") {
      throw JsonLdError("invalid base direction", direction.dump());
    }
    result.defaultDirection = direction.is_string() ? std::optional(direction.get<std::string>()) : std::nullopt;
  }
}

// A local context's keywords: @version, @base, @vocab, @language, @direction (and @propagate checked).
void applyKeywords(ActiveContext& result, const Json& context, const std::vector<std::string>& remoteContexts) {
  const bool mode10 = result.options->processingMode10;
  if (context.contains("@version")) {
    if (context["@version"] != Json(1.1)) throw JsonLdError("invalid @version value", context["@version"].dump());
    if (mode10) throw JsonLdError("processing mode conflict", "@version 1.1 in json-ld-1.0");
  }
  if (context.contains("@base") && remoteContexts.empty()) applyBase(result, context["@base"]);
  if (context.contains("@vocab")) applyVocab(result, context["@vocab"]);
  applyLanguage(result, context);
  if (context.contains("@propagate")) {
    if (mode10) throw JsonLdError("invalid context entry", "@propagate in json-ld-1.0");
    if (!context["@propagate"].is_boolean()) throw JsonLdError("invalid @propagate value", context["@propagate"].dump());
  }
}

}  // namespace

bool TermDefinition::hasContainer(std::string_view kind) const {
  return std::find(container.begin(), container.end(), kind) != container.end();
}

bool TermDefinition::sameAs(const TermDefinition& o) const {
  return iri == o.iri && prefix == o.prefix && reverse == o.reverse && typeMapping == o.typeMapping &&
         hasLanguage == o.hasLanguage && language == o.language && hasDirection == o.hasDirection &&
         direction == o.direction && context == o.context && container == o.container && index == o.index &&
         nest == o.nest;
}

const TermDefinition* ActiveContext::term(const std::string& name) const {
  const auto at = terms.find(name);
  return at == terms.end() ? nullptr : &at->second;
}

ContextPtr initialContext(const Options& options) {
  auto context = std::make_shared<ActiveContext>();
  context->base = options.base;
  context->originalBase = options.base;
  context->options = &options;
  return context;
}

ContextPtr processContext(const ContextPtr& active, const Json& local, const std::string& baseUrl, ProcessFlags flags,
                          std::vector<std::string> remoteContexts) {
  auto result = std::make_shared<ActiveContext>(*active);
  if (local.is_object() && local.contains("@propagate")) {
    if (!local["@propagate"].is_boolean()) throw JsonLdError("invalid @propagate value", local["@propagate"].dump());
    flags.propagate = local["@propagate"].get<bool>();
  }
  if (!flags.propagate && !result->previous) result->previous = active;
  const Json contexts = local.is_array() ? local : Json::array({local});
  for (const Json& context : contexts) {
    if (context.is_null()) {
      if (!flags.overrideProtected) {
        for (const auto& [name, term] : result->terms) {
          if (term.isProtected) throw JsonLdError("invalid context nullification", name + " is protected");
        }
      }
      auto fresh = std::make_shared<ActiveContext>();
      fresh->base = active->originalBase;
      fresh->originalBase = active->originalBase;
      fresh->options = active->options;
      if (!flags.propagate) fresh->previous = result->previous;
      result = fresh;
      continue;
    }
    if (context.is_string()) {
      const std::string url = rdf::resolveIri(baseUrl, context.get<std::string>());
      if (!hasScheme(url)) throw JsonLdError("loading document failed", url + " is relative and there is no base");
      if (!flags.validateScoped && std::find(remoteContexts.begin(), remoteContexts.end(), url) != remoteContexts.end()) {
        continue;
      }
      if (remoteContexts.size() >= kMaxRemoteContexts) throw JsonLdError("context overflow", url);
      remoteContexts.push_back(url);
      const RemoteDocument remote = loadContext(*active->options, url, "loading remote context failed");
      result = std::const_pointer_cast<ActiveContext>(
          processContext(result, remote.document["@context"], remote.documentUrl,
                         {.validateScoped = flags.validateScoped}, remoteContexts));
      continue;
    }
    if (!context.is_object()) throw JsonLdError("invalid local context", context.dump());
    const Json merged = context.contains("@import") ? withImport(*result, context, baseUrl) : context;
    applyKeywords(*result, merged, remoteContexts);
    TermBuilder(*result, merged, baseUrl, flags.overrideProtected, remoteContexts).defineAll();
  }
  return result;
}

std::optional<std::string> expandIri(const ActiveContext& active, const std::string& value, bool documentRelative,
                                     bool vocab) {
  return TermBuilder::expandIriIn(active, value, documentRelative, vocab, nullptr);
}

}  // namespace gsparql::jsonld
