#include "loaders/term_encoder.h"

#include "rdf/term.h"

namespace gsparql {

uint32_t TermEncoder::intern(std::string_view term) {
  if (!rdf::keyDiffersFromTerm(term)) return table_.intern(term);
  const std::string key = rdf::termKey(term);
  return intern(key, term, TermTable::hash(key));
}

uint32_t TermEncoder::intern(std::string_view key, std::string_view spelling, uint64_t hash) {
  const uint32_t before = table_.size();
  const uint32_t id = table_.intern(key, hash);
  if (id == before && spelling != key) spellings_.emplace(id, spelling);
  return id;
}

NumberedTerms TermEncoder::numbered() const {
  return {size(), [this](uint32_t id) { return key(id); }, [this](uint32_t id) { return term(id); }};
}

}  // namespace gsparql
