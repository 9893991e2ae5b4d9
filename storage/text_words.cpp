#include "storage/text_words.h"

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include "gsparql/error.h"

namespace gsparql {

struct WordSplitter::Icu {
  UBreakIterator* words = nullptr;
  UText* text = nullptr;

  ~Icu() {
    if (text != nullptr) utext_close(text);
    if (words != nullptr) ubrk_close(words);
  }
};

WordSplitter::WordSplitter() : icu_(std::make_unique<Icu>()) {
  UErrorCode status = U_ZERO_ERROR;
  // The root locale: UAX #29 itself, as Lucene's StandardTokenizer implements it.
  icu_->words = ubrk_open(UBRK_WORD, "", nullptr, 0, &status);
  if (U_FAILURE(status)) throw StorageError(std::string("ICU word break iterator: ") + u_errorName(status));
}

WordSplitter::~WordSplitter() = default;

namespace {

// Lucene's LowerCaseFilter: each code point's simple lower case.
void appendLowerCase(std::string_view word, std::string& out) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(word.data());
  const auto length = static_cast<int32_t>(word.size());
  for (int32_t i = 0; i < length;) {
    UChar32 c;
    U8_NEXT(bytes, i, length, c);
    if (c < 0) continue;  // an invalid byte: not part of any word
    c = u_tolower(c);
    char encoded[U8_MAX_LENGTH];
    int32_t n = 0;
    U8_APPEND_UNSAFE(reinterpret_cast<uint8_t*>(encoded), n, c);  // room for any code point
    out.append(encoded, static_cast<size_t>(n));
  }
}

}  // namespace

const std::vector<std::string>& WordSplitter::split(std::string_view utf8) {
  words_.clear();
  UErrorCode status = U_ZERO_ERROR;
  icu_->text = utext_openUTF8(icu_->text, utf8.data(), static_cast<int64_t>(utf8.size()), &status);
  ubrk_setUText(icu_->words, icu_->text, &status);
  if (U_FAILURE(status)) throw StorageError(std::string("ICU word break iterator: ") + u_errorName(status));
  int32_t start = ubrk_first(icu_->words);
  for (int32_t end = ubrk_next(icu_->words); end != UBRK_DONE; start = end, end = ubrk_next(icu_->words)) {
    // Spaces and punctuation are segments too, of status UBRK_WORD_NONE.
    if (ubrk_getRuleStatus(icu_->words) < UBRK_WORD_NONE_LIMIT) continue;
    std::string word;
    appendLowerCase(utf8.substr(static_cast<size_t>(start), static_cast<size_t>(end - start)), word);
    if (!word.empty()) words_.push_back(std::move(word));
  }
  return words_;
}

bool indexedText(std::string_view term, rdf::TermSplitter& splitter, std::string_view& text) {
  if (term.empty() || term.front() != '"') return false;
  const rdf::TermParts& parts = splitter.split(term);
  if (!parts.datatype.empty() && parts.datatype != "http://www.w3.org/2001/XMLSchema#string") return false;
  text = parts.value;
  return true;
}

}  // namespace gsparql
