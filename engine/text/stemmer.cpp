#include "engine/text/stemmer.h"

#include <libstemmer.h>

#include <algorithm>
#include <cctype>

namespace gsparql::engine::text {

std::unique_ptr<Stemmer> Stemmer::forLanguage(std::string_view tag) {
  std::string primary(tag.substr(0, tag.find('-')));
  std::transform(primary.begin(), primary.end(), primary.begin(), [](unsigned char c) { return std::tolower(c); });
  // Only a language code: libstemmer also knows names ("english", "porter").
  const bool code = (primary.size() == 2 || primary.size() == 3) &&
                    std::all_of(primary.begin(), primary.end(), [](unsigned char c) { return std::islower(c); });
  sb_stemmer* stemmer = code ? sb_stemmer_new(primary.c_str(), "UTF_8") : nullptr;
  if (stemmer == nullptr) return nullptr;
  return std::unique_ptr<Stemmer>(new Stemmer(stemmer));
}

Stemmer::~Stemmer() { sb_stemmer_delete(stemmer_); }

std::string Stemmer::stem(std::string_view word) {
  const sb_symbol* stemmed =
      sb_stemmer_stem(stemmer_, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
  if (stemmed == nullptr) return std::string(word);  // out of memory inside libstemmer: the word as it is
  return {reinterpret_cast<const char*>(stemmed), static_cast<size_t>(sb_stemmer_length(stemmer_))};
}

}  // namespace gsparql::engine::text
