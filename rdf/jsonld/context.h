#pragma once
// Context processing (JSON-LD 1.1 API, 4.1 and 4.2) and IRI expansion
// (5.2): what a JSON-LD document's @context entries define, and how a term,
// compact IRI or relative IRI becomes an absolute IRI, a blank node
// identifier or a keyword.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

struct TermDefinition {
  std::optional<std::string> iri;  // none: the term is mapped to null (it drops what it names)
  bool prefix = false;             // usable as the prefix of a compact IRI
  bool isProtected = false;
  bool reverse = false;
  std::optional<std::string> typeMapping;
  bool hasLanguage = false;  // "@language" given (language may then be null)
  std::optional<std::string> language;
  bool hasDirection = false;
  std::optional<std::string> direction;
  std::optional<Json> context;  // a scoped context, processed where the term is used
  std::string contextBase;      // what its relative IRIs resolve against
  std::vector<std::string> container;
  std::optional<std::string> index;
  std::optional<std::string> nest;

  bool hasContainer(std::string_view kind) const;
  // Equal but for `isProtected` (a protected term may be redefined so).
  bool sameAs(const TermDefinition& other) const;
};

class ActiveContext;
using ContextPtr = std::shared_ptr<const ActiveContext>;

class ActiveContext {
 public:
  std::optional<std::string> base;
  std::optional<std::string> originalBase;
  std::map<std::string, TermDefinition> terms;
  std::optional<std::string> vocab;
  std::optional<std::string> defaultLanguage;
  std::optional<std::string> defaultDirection;
  ContextPtr previous;  // before a type-scoped context, which new node objects drop
  const Options* options = nullptr;

  const TermDefinition* term(const std::string& name) const;
};

// The context a document starts with: no terms, `options.base` as base.
ContextPtr initialContext(const Options& options);

struct ProcessFlags {
  bool overrideProtected = false;
  bool propagate = true;
  bool validateScoped = true;
};

// Context Processing: `local` (an object, IRI, null, or array of them)
// applied to `active`; `baseUrl` is what a relative context IRI resolves against.
ContextPtr processContext(const ContextPtr& active, const Json& local, const std::string& baseUrl,
                          ProcessFlags flags = {}, std::vector<std::string> remoteContexts = {});

// IRI Expansion of `value` in `active`; nullopt where the value maps to
// null (a term defined as null, a word shaped like a keyword).
std::optional<std::string> expandIri(const ActiveContext& active, const std::string& value, bool documentRelative,
                                     bool vocab);

}  // namespace gsparql::jsonld
