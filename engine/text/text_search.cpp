#include "engine/text/text_search.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

#include "engine/text/stem_table.h"
#include "engine/text/stemmer.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"
#include "storage/text_words.h"

namespace gsparql::engine::text {

double TextMatches::scoreOf(uint32_t literal) const {
  const auto it = std::lower_bound(literals.begin(), literals.end(), literal);
  return scores[static_cast<size_t>(it - literals.begin())];
}

namespace {

constexpr double kK1 = 1.2, kB = 0.75;

// Calls shared(i, j) for each literal a.literals[i] == b.literals[j].
template <typename Shared>
void forEachShared(const TextMatches& a, const TextMatches& b, Shared shared) {
  for (size_t i = 0, j = 0; i < a.literals.size() && j < b.literals.size();) {
    if (a.literals[i] < b.literals[j]) {
      ++i;
    } else if (b.literals[j] < a.literals[i]) {
      ++j;
    } else {
      shared(i++, j++);
    }
  }
}

// Sorted-list operations on (literal, score): scores of a literal in both add.
TextMatches intersect(const TextMatches& a, const TextMatches& b) {
  TextMatches out;
  forEachShared(a, b, [&](size_t i, size_t j) {
    out.literals.push_back(a.literals[i]);
    out.scores.push_back(a.scores[i] + b.scores[j]);
  });
  return out;
}

TextMatches unite(const TextMatches& a, const TextMatches& b) {
  TextMatches out;
  size_t i = 0, j = 0;
  while (i < a.literals.size() || j < b.literals.size()) {
    const bool fromA = j == b.literals.size() || (i < a.literals.size() && a.literals[i] <= b.literals[j]);
    const bool fromB = i == a.literals.size() || (j < b.literals.size() && b.literals[j] <= a.literals[i]);
    out.literals.push_back(fromA ? a.literals[i] : b.literals[j]);
    out.scores.push_back((fromA ? a.scores[i++] : 0.0) + (fromB ? b.scores[j++] : 0.0));
  }
  return out;
}

// `a` with the scores of the literals `b` shares added (optional words rank
// among required ones without widening them).
TextMatches boost(const TextMatches& a, const TextMatches& b) {
  TextMatches out = a;
  forEachShared(a, b, [&](size_t i, size_t j) { out.scores[i] += b.scores[j]; });
  return out;
}

TextMatches subtract(const TextMatches& a, const TextMatches& b) {
  TextMatches out;
  for (size_t i = 0, j = 0; i < a.literals.size(); ++i) {
    while (j < b.literals.size() && b.literals[j] < a.literals[i]) ++j;
    if (j < b.literals.size() && b.literals[j] == a.literals[i]) continue;
    out.literals.push_back(a.literals[i]);
    out.scores.push_back(a.scores[i]);
  }
  return out;
}

std::string literalTerm(const GraphStore& store, uint32_t literal) {
  return store.terms() ? std::string(store.terms()->term(literal)) : store.dictionary().term(TermSpace::Vertex, literal);
}

// The words a query word matches: itself, or with a stemmer the index's
// words of its stem (stem_table.h).
class WordForms {
 public:
  explicit WordForms(const TextIndex& index, const std::string& language) : stemmer_(Stemmer::forLanguage(language)) {
    if (stemmer_) table_ = stemTable(index, language);
  }
  bool stems() const { return stemmer_ != nullptr; }
  std::vector<std::string> of(const std::string& word) {
    if (!stemmer_) return {word};
    std::vector<std::string> forms;
    for (std::string_view w : table_->wordsWithStem(stemmer_->stem(word))) forms.emplace_back(w);
    return forms;
  }
  std::string stem(std::string_view word) { return stemmer_ ? stemmer_->stem(word) : std::string(word); }

 private:
  std::unique_ptr<Stemmer> stemmer_;
  std::shared_ptr<const StemTable> table_;
};

class Searcher {
 public:
  Searcher(const GraphStore& store, const std::string& language, StopCheck& stop)
      : store_(store), index_(*store.text()), stop_(stop), averageLength_(index_.averageLength()),
        forms_(index_, language) {}

  TextMatches run(const TextNode& node) {
    switch (node.kind) {
      case TextNode::Kind::Words: return node.words.size() == 1 ? word(node.words[0]) : phrase(node.words);
      case TextNode::Kind::Prefix: return prefix(node.words[0]);
      case TextNode::Kind::Group: return group(node);
    }
    return {};
  }

 private:
  // A word's literals scored by BM25; with a stemmer, its forms as one word
  // (counts in a literal added, a literal holding any of them counted once).
  TextMatches word(const std::string& w) {
    const std::vector<TextPosting> postings = postingsOf(forms_.of(w));
    stop_(static_cast<int64_t>(postings.size()));
    const auto n = static_cast<double>(index_.literals()), df = static_cast<double>(postings.size());
    const double idf = std::log(1 + (n - df + 0.5) / (df + 0.5));
    TextMatches out;
    for (const TextPosting& p : postings) {
      const double tf = p.count, norm = kK1 * (1 - kB + kB * p.length / averageLength_);
      out.literals.push_back(p.literal);
      out.scores.push_back(idf * tf * (kK1 + 1) / (tf + norm));
    }
    return out;
  }

  std::vector<TextPosting> postingsOf(const std::vector<std::string>& forms) {
    if (forms.size() == 1) return index_.postings(forms[0]);
    std::vector<TextPosting> all;
    for (const std::string& form : forms) {
      for (const TextPosting& p : index_.postings(form)) all.push_back(p);
      stop_(1);
    }
    std::sort(all.begin(), all.end(), [](const TextPosting& a, const TextPosting& b) { return a.literal < b.literal; });
    std::vector<TextPosting> merged;
    for (const TextPosting& p : all) {
      if (!merged.empty() && merged.back().literal == p.literal) {
        merged.back().count += p.count;
      } else {
        merged.push_back(p);
      }
    }
    return merged;
  }

  // The literals holding every word, then those holding them in a row.
  TextMatches phrase(const std::vector<std::string>& words) {
    TextMatches all = word(words[0]);
    for (size_t i = 1; i < words.size() && !all.literals.empty(); ++i) all = intersect(all, word(words[i]));
    TextMatches out;
    for (size_t i = 0; i < all.literals.size(); ++i) {
      stop_();
      if (holdsInARow(all.literals[i], words)) {
        out.literals.push_back(all.literals[i]);
        out.scores.push_back(all.scores[i]);
      }
    }
    return out;
  }

  bool holdsInARow(uint32_t literal, const std::vector<std::string>& words) {
    const std::string term = literalTerm(store_, literal);
    std::string_view text;
    if (!indexedText(term, terms_, text)) return false;
    const std::vector<std::string>& held = splitter_.split(text);
    if (!forms_.stems()) return std::search(held.begin(), held.end(), words.begin(), words.end()) != held.end();
    const std::vector<std::string> heldStems = stems(held), wordStems = stems(words);
    return std::search(heldStems.begin(), heldStems.end(), wordStems.begin(), wordStems.end()) != heldStems.end();
  }

  std::vector<std::string> stems(const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (const std::string& w : words) out.push_back(forms_.stem(w));
    return out;
  }

  TextMatches prefix(const std::string& start) {
    std::vector<uint32_t> literals;
    index_.forEachWordStartingWith(start, [&](std::string_view w) {
      for (const TextPosting& p : index_.postings(w)) literals.push_back(p.literal);
      stop_(static_cast<int64_t>(literals.size() / 64 + 1));
    });
    std::sort(literals.begin(), literals.end());
    literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
    TextMatches out;
    out.scores.assign(literals.size(), 1.0);
    out.literals = std::move(literals);
    return out;
  }

  // Lucene's boolean query: the required clauses intersected (or, with none,
  // the optional ones united), the excluded ones taken out.
  TextMatches group(const TextNode& node) {
    std::optional<TextMatches> required;
    TextMatches optional, excluded;
    for (const auto& clause : node.clauses) {
      TextMatches m = run(clause.node);
      if (clause.occur == Occur::Must) {
        required = required ? intersect(*required, m) : std::move(m);
      } else if (clause.occur == Occur::Should) {
        optional = unite(optional, m);
      } else {
        excluded = unite(excluded, m);
      }
    }
    return subtract(required ? boost(*required, optional) : optional, excluded);
  }

  const GraphStore& store_;
  const TextIndex& index_;
  StopCheck& stop_;
  double averageLength_;
  WordSplitter splitter_;
  rdf::TermSplitter terms_;
  WordForms forms_;
};

// The `limit` best, back in id order.
void keepBest(TextMatches& matches, uint64_t limit) {
  if (matches.literals.size() <= limit) return;
  std::vector<size_t> order(matches.literals.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(limit), order.end(), [&](size_t a, size_t b) {
    return matches.scores[a] != matches.scores[b] ? matches.scores[a] > matches.scores[b] : a < b;
  });
  order.resize(limit);
  std::sort(order.begin(), order.end());
  TextMatches best;
  for (size_t i : order) {
    best.literals.push_back(matches.literals[i]);
    best.scores.push_back(matches.scores[i]);
  }
  matches = std::move(best);
}

// The matches `keep` keeps.
void keepOnly(TextMatches& matches, const std::function<bool(uint32_t)>& keep, StopCheck& stop) {
  TextMatches kept;
  for (size_t i = 0; i < matches.literals.size(); ++i) {
    stop();
    if (!keep(matches.literals[i])) continue;
    kept.literals.push_back(matches.literals[i]);
    kept.scores.push_back(matches.scores[i]);
  }
  matches = std::move(kept);
}

// Whether the literal's language tag is `language`, ignoring case.
bool hasLanguage(const GraphStore& store, uint32_t literal, std::string_view language) {
  const std::string term = literalTerm(store, literal);
  rdf::TermSplitter splitter;
  const std::string_view tag = splitter.split(term).language;
  const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return std::equal(tag.begin(), tag.end(), language.begin(), language.end(),
                    [&](char a, char b) { return lower(a) == lower(b); });
}

}  // namespace

TextMatches searchText(const TextNode& query, const GraphStore& store, const TextSearch& search, StopCheck& stop) {
  if (store.text() == nullptr) {
    throw QueryError("this database has no text index (it was written before gsparql had one): load it again");
  }
  TextMatches matches = Searcher(store, search.language, stop).run(query);
  if (!search.language.empty()) {
    keepOnly(matches, [&](uint32_t literal) { return hasLanguage(store, literal, search.language); }, stop);
  }
  if (search.keep) keepOnly(matches, search.keep, stop);
  if (search.limit) keepBest(matches, *search.limit);
  return matches;
}

std::optional<std::vector<uint32_t>> literalsWithWordsHolding(std::string_view part, const GraphStore& store, size_t cap,
                                                             StopCheck& stop) {
  if (store.text() == nullptr) return std::nullopt;
  std::vector<uint32_t> literals;
  bool over = false;
  store.text()->forEachWordContaining(part, [&](std::string_view word) {
    if (over) return;
    for (const TextPosting& p : store.text()->postings(word)) literals.push_back(p.literal);
    stop(1);
    over = literals.size() > cap * 4;  // repeats counted: stop long before sorting a huge list
  });
  std::sort(literals.begin(), literals.end());
  literals.erase(std::unique(literals.begin(), literals.end()), literals.end());
  if (over || literals.size() > cap) return std::nullopt;
  return literals;
}

}  // namespace gsparql::engine::text
