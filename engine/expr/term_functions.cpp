// Functions on RDF terms (section 17.4.2) and the ones that make new terms
// (BNODE, IRI, STRDT, STRLANG, UUID, STRUUID, NOW, RAND); SPARQL 1.2's on
// triple terms and base directions.
#include <random>

#include <uuid/uuid.h>

#include "engine/expr/builtins.h"
#include "engine/expr/numeric.h"
#include "rdf/iri.h"

namespace gsparql::engine::expr {
namespace {

// The kind of a term shows in its first characters: no need to split it.
template <rdf::TermKind Kind>
std::optional<bool> isKind(const std::vector<Arg>& a, CallContext&) {
  return rdf::termKind(a[0].text) == Kind;
}

template <rdf::TermKind Kind>
Builtin kindTest(std::string_view name) {
  Builtin b = predicate<isKind<Kind>>(name, 1, 1, true);
  b.readsFirstCharacters = true;
  return b;
}

// Only a literal with a datatype, whose term ends with '>', can be a number.
std::optional<bool> isNumeric(const std::vector<Arg>& a, CallContext&) {
  return a[0].text.ends_with('>') && parseNumber(parseTerm(a[0].text)).has_value();
}

std::optional<bool> sameTerm(const std::vector<Arg>& a, CallContext&) {
  return rdf::termKey(a[0].text) == rdf::termKey(a[1].text);
}

Result str(const std::vector<Arg>& a, CallContext&) {
  if (a[0].term.kind == rdf::TermKind::Blank || a[0].term.kind == rdf::TermKind::Triple) return std::nullopt;
  return stringTerm(a[0].term.value);
}

// A literal whose term ends with its closing quote has no tag: no need to
// split it (most literals are simple).
Result lang(const std::vector<Arg>& a, CallContext&) {
  if (rdf::termKind(a[0].text) != rdf::TermKind::Literal) return std::nullopt;
  if (a[0].text.ends_with('"')) return stringTerm("");
  const std::string tag = parseTerm(a[0].text).language;
  return stringTerm(std::string_view(tag).substr(0, tag.find("--")));
}

Result langdir(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isLiteral()) return std::nullopt;
  return stringTerm(a[0].term.direction);
}

std::optional<bool> hasLang(const std::vector<Arg>& a, CallContext&) { return !a[0].term.language.empty(); }
std::optional<bool> hasLangDir(const std::vector<Arg>& a, CallContext&) { return !a[0].term.direction.empty(); }

Result datatype(const std::vector<Arg>& a, CallContext&) {
  const TermValue& t = a[0].term;
  if (!t.isLiteral()) return std::nullopt;
  if (!t.direction.empty()) return rdf::iriTerm(rdf::kRdfDirLangString);
  if (!t.language.empty()) return rdf::iriTerm(rdf::kRdfLangString);
  return rdf::iriTerm(t.datatype.empty() ? rdf::kXsdString : std::string_view(t.datatype));
}

// A relative IRI resolves against the query's base (section 17.4.2.8).
Result iri(const std::vector<Arg>& a, CallContext& context) {
  if (a[0].term.kind == rdf::TermKind::Iri) return std::string(a[0].text);
  if (!a[0].term.isSimple()) return std::nullopt;
  return rdf::iriTerm(rdf::resolveIri(context.environment.baseIri, a[0].term.value));
}

Result bnode(const std::vector<Arg>& a, CallContext& context) {
  const Environment& environment = context.environment;
  if (a.empty()) return environment.freshBlankNode();
  if (!a[0].term.isSimple()) return std::nullopt;
  if (environment.blankNodeFor) return environment.blankNodeFor(a[0].term.value);
  auto [it, added] = context.blankNodes.try_emplace(a[0].term.value);
  if (added) it->second = environment.freshBlankNode();
  return it->second;
}

Result strdt(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isSimple() || a[1].term.kind != rdf::TermKind::Iri) return std::nullopt;
  return rdf::literalTerm(a[0].term.value, {}, a[1].term.value);
}

Result strlang(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isSimple() || !a[1].term.isSimple() || a[1].term.value.empty()) return std::nullopt;
  return rdf::literalTerm(a[0].term.value, a[1].term.value);
}

Result strlangdir(const std::vector<Arg>& a, CallContext&) {
  if (!a[0].term.isSimple() || !a[1].term.isSimple() || a[1].term.value.empty() || !a[2].term.isSimple()) {
    return std::nullopt;
  }
  const std::string& direction = a[2].term.value;
  if (direction != "ltr" && direction != "rtl") return std::nullopt;
  return rdf::literalTerm(a[0].term.value, a[1].term.value + "--" + direction);
}

// RDF 1.2: a triple term's subject is an IRI or a blank node, its predicate an IRI.
Result triple(const std::vector<Arg>& a, CallContext&) {
  const rdf::TermKind subject = a[0].term.kind;
  if ((subject != rdf::TermKind::Iri && subject != rdf::TermKind::Blank) || a[1].term.kind != rdf::TermKind::Iri) {
    return std::nullopt;
  }
  return rdf::tripleTerm(a[0].text, a[1].text, a[2].text);
}

template <std::string_view rdf::TripleTermParts::*part>
Result partOf(const std::vector<Arg>& a, CallContext&) {
  rdf::TripleTermParts parts;
  if (!rdf::splitTripleTerm(a[0].text, &parts)) return std::nullopt;
  return std::string(parts.*part);
}

std::string randomUuid() {
  uuid_t id;
  uuid_generate_random(id);
  char text[37];
  uuid_unparse_lower(id, text);
  return text;
}

Result uuid(const std::vector<Arg>&, CallContext&) { return rdf::iriTerm("urn:uuid:" + randomUuid()); }
Result struuid(const std::vector<Arg>&, CallContext&) { return stringTerm(randomUuid()); }
Result now(const std::vector<Arg>&, CallContext& context) { return context.environment.now; }

Result rand(const std::vector<Arg>&, CallContext&) {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  return numberTerm(Number::floating(NumType::Double, uniform(generator)));
}

}  // namespace

std::vector<Builtin> termBuiltins() {
  return {
      kindTest<rdf::TermKind::Iri>("ISIRI"),
      kindTest<rdf::TermKind::Iri>("ISURI"),
      kindTest<rdf::TermKind::Blank>("ISBLANK"),
      kindTest<rdf::TermKind::Literal>("ISLITERAL"),
      predicate<isNumeric>("ISNUMERIC", 1, 1, true),
      predicate<sameTerm>("SAMETERM", 2, 2, true),
      {"STR", str, 1, 1},            {.name = "LANG", .fn = lang, .minArgs = 1, .maxArgs = 1, .readsTextOnly = true},
      {"DATATYPE", datatype, 1, 1},  {"IRI", iri, 1, 1, false},
      {"URI", iri, 1, 1, false},     {"BNODE", bnode, 0, 1, false},
      {"STRDT", strdt, 2, 2},        {"STRLANG", strlang, 2, 2},
      {"UUID", uuid, 0, 0, false},   {"STRUUID", struuid, 0, 0, false},
      {"NOW", now, 0, 0, false},     {"RAND", rand, 0, 0, false},
      {"LANGDIR", langdir, 1, 1},    predicate<hasLang>("HASLANG", 1, 1),
      predicate<hasLangDir>("HASLANGDIR", 1, 1), {"STRLANGDIR", strlangdir, 3, 3},
      kindTest<rdf::TermKind::Triple>("ISTRIPLE"), {"TRIPLE", triple, 3, 3},
      {"SUBJECT", partOf<&rdf::TripleTermParts::subject>, 1, 1},
      {"PREDICATE", partOf<&rdf::TripleTermParts::predicate>, 1, 1},
      {"OBJECT", partOf<&rdf::TripleTermParts::object>, 1, 1},
  };
}

}  // namespace gsparql::engine::expr
