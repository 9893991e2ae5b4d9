// The independent engine of benchmarks/text_lucene.sh: Lucene++ (a C++ port of
// Apache Lucene 3.0), for comparing gsparql's text:query with Lucene's
// StandardAnalyzer and classic QueryParser on the same literals.
//
//   lucene_search search LITERALS SEARCHES MATCHES [REPEAT]
//     LITERALS: lines "ID<TAB>TEXT" (TEXT with \\, \n, \r, \t escaped), each
//     indexed as one document (field "text") by StandardAnalyzer with an empty
//     stop-word set (gsparql has none), in a RAMDirectory, optimized to one
//     segment. SEARCHES: one search text a line, parsed by QueryParser (default
//     operator OR, Lucene's). MATCHES gets per search a line
//     "N<TAB>ROWS<TAB>ID ID ..." (ids sorted) or "N<TAB>error<TAB>MESSAGE".
//     Then (REPEAT > 0) every search runs REPEAT times (default 5) after a warm-up run, in
//     two ways: "hits": parsing, searching and collecting every matching
//     document's number (no scores, no top-k); "docs": parsing, a scored
//     top-k search with k = the search's rows (TopDocs, sorted by score; k
//     as large as the index would make Lucene fill a queue that size first)
//     and reading each hit's stored fields (id and text), as Jena's text
//     index reads the hits of a query. Standard output gets CSV
//     "search,rows,hits_min_ms,hits_median_ms,hits_max_ms,docs_min_ms,docs_median_ms,docs_max_ms".
//     Standard error: the indexing time.
//   lucene_search tokens
//     Standard input: lines "ID<TAB>TEXT" as above; standard output: lines
//     "ID<TAB>LUCENE<TAB>UAX29": the text's tokens through StandardAnalyzer
//     and its words as ICU's UAX #29 word break iterator cuts them (segments
//     that hold letters, digits, kana or ideographs, lower-cased code point by
//     code point, as docs/text-search.md describes gsparql's words), each list
//     space-separated. Used only to say why a literal's rows differ.
#include <lucene++/LuceneHeaders.h>
#include <lucene++/SnowballAnalyzer.h>
#include <lucene++/StringReader.h>
#include <lucene++/TermAttribute.h>
#include <lucene++/MiscUtils.h>

#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace Lucene;

namespace {

std::string unescape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    out += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
  }
  return out;
}

struct Literal {
  std::string id;
  std::string text;
};

std::vector<Literal> readLiterals(std::istream& in) {
  std::vector<Literal> literals;
  std::string line;
  while (std::getline(in, line)) {
    auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    literals.push_back({line.substr(0, tab), unescape(line.substr(tab + 1))});
  }
  return literals;
}

AnalyzerPtr makeAnalyzer() {
  // With LUCENE_SNOWBALL=NAME ("English", "German", ...): the contrib's
  // SnowballAnalyzer, StandardAnalyzer's tokens stemmed by that Snowball
  // algorithm, without stop words (as a Jena index with a language's
  // analyzer stems, for gsparql's lang:TAG searches).
  if (const char* snowball = std::getenv("LUCENE_SNOWBALL")) {
    return newLucene<SnowballAnalyzer>(LuceneVersion::LUCENE_30, StringUtils::toUnicode(snowball));
  }
  // An empty stop-word set (StandardAnalyzer's default is English's stop
  // words), read from an empty word list: Debian's Lucene++ is built against
  // Boost 1.74, and a HashSet made here with another Boost's headers (gsparql
  // uses 1.81) has another layout, so none is handed to the library.
  return newLucene<StandardAnalyzer>(LuceneVersion::LUCENE_30, newLucene<StringReader>(L""));
}

// Every hit's document number: no scores, no top-k.
class AllHits : public Collector {
public:
  explicit AllHits(std::vector<int32_t>* hits) : hits_(*hits) {}
  void setScorer(const ScorerPtr&) override {}
  void collect(int32_t doc) override { hits_.push_back(base_ + doc); }
  void setNextReader(const IndexReaderPtr&, int32_t docBase) override { base_ = docBase; }
  bool acceptsDocsOutOfOrder() override { return true; }

private:
  std::vector<int32_t>& hits_;
  int32_t base_ = 0;
};

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int search(const char* literalsPath, const char* searchesPath, const char* matchesPath, int repeat) {
  std::ifstream literalsIn(literalsPath);
  if (!literalsIn) {
    std::cerr << "cannot read " << literalsPath << "\n";
    return 2;
  }
  std::vector<Literal> literals = readLiterals(literalsIn);
  std::vector<std::string> searches;
  {
    std::ifstream in(searchesPath);
    if (!in) {
      std::cerr << "cannot read " << searchesPath << "\n";
      return 2;
    }
    for (std::string line; std::getline(in, line);) searches.push_back(line);
  }

  auto start = std::chrono::steady_clock::now();
  AnalyzerPtr analyzer = makeAnalyzer();
  DirectoryPtr directory = newLucene<RAMDirectory>();
  IndexWriterPtr writer = newLucene<IndexWriter>(directory, analyzer, true, IndexWriter::MaxFieldLengthUNLIMITED);
  for (const Literal& literal : literals) {
    DocumentPtr doc = newLucene<Document>();
    doc->add(newLucene<Field>(L"id", StringUtils::toUnicode(literal.id), Field::STORE_YES, Field::INDEX_NOT_ANALYZED));
    doc->add(newLucene<Field>(L"text", StringUtils::toUnicode(literal.text), Field::STORE_YES, Field::INDEX_ANALYZED));
    writer->addDocument(doc);
  }
  writer->optimize();
  writer->close();
  IndexReaderPtr reader = IndexReader::open(directory, true);
  IndexSearcherPtr searcher = newLucene<IndexSearcher>(reader);
  double indexMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // Document numbers to ids, read back from the stored field once.
  std::vector<std::string> ids(static_cast<size_t>(reader->maxDoc()));
  for (int32_t d = 0; d < reader->maxDoc(); ++d) ids[d] = StringUtils::toUTF8(reader->document(d)->get(L"id"));
  std::cerr << "lucene++: indexed " << literals.size() << " literals in " << indexMs << " ms\n";

  auto runOne = [&](const std::string& text, std::vector<int32_t>& hits) {
    hits.clear();
    QueryParserPtr parser = newLucene<QueryParser>(LuceneVersion::LUCENE_30, L"text", analyzer);
    parser->setDefaultOperator(QueryParser::OR_OPERATOR);
    QueryPtr query = parser->parse(StringUtils::toUnicode(text));
    searcher->search(query, newLucene<AllHits>(&hits));
  };

  // Jena's way: scored top-k hits, each hit's document read.
  size_t bytesRead = 0;
  auto runDocs = [&](const std::string& text, size_t k) {
    QueryParserPtr parser = newLucene<QueryParser>(LuceneVersion::LUCENE_30, L"text", analyzer);
    parser->setDefaultOperator(QueryParser::OR_OPERATOR);
    QueryPtr query = parser->parse(StringUtils::toUnicode(text));
    TopDocsPtr top = searcher->search(query, std::max<int32_t>(1, static_cast<int32_t>(k)));
    for (const ScoreDocPtr& hit : top->scoreDocs) {
      DocumentPtr doc = searcher->doc(hit->doc);
      bytesRead += doc->get(L"id").size() + doc->get(L"text").size();
    }
    return static_cast<size_t>(top->totalHits);
  };

  std::ofstream matches(matchesPath);
  std::vector<bool> failed(searches.size(), false);
  std::vector<int32_t> hits;
  for (size_t i = 0; i < searches.size(); ++i) {
    try {
      runOne(searches[i], hits);
    } catch (LuceneException& e) {
      failed[i] = true;
      matches << i << "\terror\t" << StringUtils::toUTF8(e.getError()) << "\n";
      continue;
    }
    std::vector<std::string> found;
    found.reserve(hits.size());
    for (int32_t d : hits) found.push_back(ids[d]);
    std::sort(found.begin(), found.end());
    matches << i << "\t" << found.size() << "\t";
    for (size_t k = 0; k < found.size(); ++k) matches << (k ? " " : "") << found[k];
    matches << "\n";
  }
  matches.close();
  if (repeat <= 0) return 0;  // rows only

  std::cout << "search,rows,hits_min_ms,hits_median_ms,hits_max_ms,docs_min_ms,docs_median_ms,docs_max_ms\n";
  for (size_t i = 0; i < searches.size(); ++i) {
    if (failed[i]) continue;
    std::vector<double> ms, docMs;
    runOne(searches[i], hits);  // warm-up
    size_t docRows = runDocs(searches[i], hits.size());
    if (docRows != hits.size()) std::cerr << "search " << i << ": " << docRows << " top docs, " << hits.size() << " hits\n";
    for (int r = 0; r < repeat; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      runOne(searches[i], hits);
      auto t1 = std::chrono::steady_clock::now();
      runDocs(searches[i], hits.size());
      auto t2 = std::chrono::steady_clock::now();
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      docMs.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    char line[256];
    std::snprintf(line, sizeof line, "%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f", i, hits.size(),
                  *std::min_element(ms.begin(), ms.end()), medianOf(ms), *std::max_element(ms.begin(), ms.end()),
                  *std::min_element(docMs.begin(), docMs.end()), medianOf(docMs),
                  *std::max_element(docMs.begin(), docMs.end()));
    std::cout << line << "\n";
  }
  if (bytesRead == 0 && !searches.empty()) std::cerr << "(no stored text read)\n";
  return 0;
}

std::string luceneTokens(const AnalyzerPtr& analyzer, const std::string& text) {
  TokenStreamPtr stream = analyzer->tokenStream(L"text", newLucene<StringReader>(StringUtils::toUnicode(text)));
  TermAttributePtr term = stream->addAttribute<TermAttribute>();
  std::string out;
  while (stream->incrementToken()) {
    if (!out.empty()) out += ' ';
    out += StringUtils::toUTF8(term->term());
  }
  stream->close();
  return out;
}

std::string uax29Words(UBreakIterator* words, const std::string& text) {
  UErrorCode status = U_ZERO_ERROR;
  UText* ut = utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status);
  ubrk_setUText(words, ut, &status);
  std::string out;
  int32_t start = ubrk_first(words);
  for (int32_t end = ubrk_next(words); end != UBRK_DONE; start = end, end = ubrk_next(words)) {
    if (ubrk_getRuleStatus(words) < UBRK_WORD_NONE_LIMIT) continue;
    if (!out.empty()) out += ' ';
    const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
    for (int32_t i = start; i < end;) {
      UChar32 c;
      U8_NEXT(bytes, i, end, c);
      if (c < 0) continue;
      c = u_tolower(c);
      uint8_t encoded[U8_MAX_LENGTH];
      int32_t n = 0;
      U8_APPEND_UNSAFE(encoded, n, c);
      out.append(reinterpret_cast<char*>(encoded), static_cast<size_t>(n));
    }
  }
  utext_close(ut);
  return out;
}

int tokens() {
  AnalyzerPtr analyzer = makeAnalyzer();
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator* words = ubrk_open(UBRK_WORD, "", nullptr, 0, &status);
  if (U_FAILURE(status)) {
    std::cerr << "ICU: " << u_errorName(status) << "\n";
    return 2;
  }
  for (const Literal& literal : readLiterals(std::cin))
    std::cout << literal.id << "\t" << luceneTokens(analyzer, literal.text) << "\t" << uax29Words(words, literal.text)
              << "\n";
  ubrk_close(words);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "search" && (argc == 5 || argc == 6)) return search(argv[2], argv[3], argv[4], argc == 6 ? std::stoi(argv[5]) : 5);
    if (mode == "tokens" && argc == 2) return tokens();
  } catch (LuceneException& e) {
    std::cerr << "lucene++: " << StringUtils::toUTF8(e.getError()) << "\n";
    return 1;
  }
  std::cerr << "usage: lucene_search search LITERALS SEARCHES MATCHES [REPEAT] | lucene_search tokens\n";
  return 2;
}
