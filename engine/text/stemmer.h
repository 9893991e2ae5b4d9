#pragma once
// Snowball's stemmers (libstemmer, from Debian's libstemmer-dev) by language
// tag: the tag's primary subtag ("en" of "en-GB") names the algorithm by its
// ISO 639 code, as libstemmer lists them (en, de, fr, es, ru, ...). What a
// text search with lang:TAG matches words by (docs/text-search.md).
#include <memory>
#include <string>
#include <string_view>

struct sb_stemmer;

namespace gsparql::engine::text {

// One algorithm's state: not to be shared between threads.
class Stemmer {
 public:
  // nullptr where Snowball has no stemmer for the tag's language.
  static std::unique_ptr<Stemmer> forLanguage(std::string_view tag);
  ~Stemmer();
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;

  // The stem of a lower-case UTF-8 word (as the text index holds it).
  std::string stem(std::string_view word);

 private:
  explicit Stemmer(sb_stemmer* stemmer) : stemmer_(stemmer) {}
  sb_stemmer* stemmer_;
};

}  // namespace gsparql::engine::text
