#pragma once
// The words of a text as Lucene's StandardAnalyzer (the analyzer of Jena's
// text index) makes them: Unicode word boundaries (UAX #29, through ICU's
// word break iterator), the segments that hold letters, digits, kana or
// ideographs kept, each lower-cased code point by code point; no stop
// words, no stemming. The text index stores these words and a text query
// looks them up, so both sides split alike.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rdf/term_parts.h"

namespace gsparql {

class WordSplitter {
 public:
  WordSplitter();
  ~WordSplitter();
  WordSplitter(const WordSplitter&) = delete;
  WordSplitter& operator=(const WordSplitter&) = delete;

  // The words of `utf8`, in order, repeats kept; invalid UTF-8 bytes are
  // word boundaries (U+FFFD), never words.
  const std::vector<std::string>& split(std::string_view utf8);

 private:
  struct Icu;
  std::unique_ptr<Icu> icu_;
  std::vector<std::string> words_;
};

// The text the index holds of a term: the lexical form of a simple,
// xsd:string or language-tagged literal; nothing (false) for IRIs, blank
// nodes and literals of other datatypes (numbers, dates: not words).
bool indexedText(std::string_view term, rdf::TermSplitter& splitter, std::string_view& text);

}  // namespace gsparql
