#include "loaders/statement_batch.h"

#include <algorithm>

#include "loaders/term_table.h"
#include "rdf/term.h"
#include "storage/named_graphs.h"

namespace gsparql {

void StatementBatch::add(const RdfStatementView& statement) {
  if (statement.graph.empty()) {
    predicateOfTriple_.push_back(localPredicate(statement.predicate));
  } else {
    graphPredicate_ = graphPredicateKey(statement.predicate, statement.graph);
    predicateOfTriple_.push_back(localPredicate(graphPredicate_));
    if (graphs_.empty() || graphs_.back() != statement.graph) graphs_.emplace_back(statement.graph);
  }
  addVertex(statement.subject);
  addVertex(statement.object);
}

void StatementBatch::addVertex(std::string_view term) {
  text_ += term;
  textEnds_.push_back(text_.size());
}

uint32_t StatementBatch::localPredicate(std::string_view predicate) {
  // Statements about one subject often share predicates in a row.
  if (!predicateOfTriple_.empty() && predicates_[predicateOfTriple_.back()] == predicate) {
    return predicateOfTriple_.back();
  }
  auto [it, inserted] = predicateIndex_.try_emplace(std::string(predicate), predicates_.size());
  if (inserted) predicates_.emplace_back(predicate);
  return it->second;
}

void StatementBatch::prepare(unsigned shardBits) {
  // Graph names are vertices too (GRAPH ?g binds them), after the triples' terms.
  std::sort(graphs_.begin(), graphs_.end());
  graphs_.erase(std::unique(graphs_.begin(), graphs_.end()), graphs_.end());
  for (const std::string& graph : graphs_) addVertex(graph);
  graphs_.clear();
  const size_t count = textEnds_.size();
  // Keys first, views after: keys_ must stop growing before views point into it.
  std::vector<uint64_t> keyEnds(count, 0);
  for (size_t i = 0, begin = 0; i < count; begin = textEnds_[i++]) {
    const std::string_view term(text_.data() + begin, textEnds_[i] - begin);
    if (!rdf::keyDiffersFromTerm(term)) continue;
    keys_ += rdf::termKey(term);
    keyEnds[i] = keys_.size();
  }
  vertexTerms_.resize(count);
  std::vector<uint32_t> shardOf(count);
  shardStarts_.assign((size_t{1} << shardBits) + 1, 0);
  for (size_t i = 0, begin = 0, keyBegin = 0; i < count; begin = textEnds_[i++]) {
    const std::string_view spelling(text_.data() + begin, textEnds_[i] - begin);
    std::string_view key = spelling;
    if (keyEnds[i] != 0) {
      key = std::string_view(keys_.data() + keyBegin, keyEnds[i] - keyBegin);
      keyBegin = keyEnds[i];
    }
    const uint64_t hash = TermTable::hash(key);
    vertexTerms_[i] = {key, spelling, hash};
    shardOf[i] = shardBits == 0 ? 0 : static_cast<uint32_t>(hash >> (64 - shardBits));
    ++shardStarts_[shardOf[i] + 1];
  }
  for (size_t s = 1; s < shardStarts_.size(); ++s) shardStarts_[s] += shardStarts_[s - 1];
  termsByShard_.resize(count);
  std::vector<uint32_t> next(shardStarts_.begin(), shardStarts_.end() - 1);
  for (size_t i = 0; i < count; ++i) termsByShard_[next[shardOf[i]]++] = static_cast<uint32_t>(i);
}

}  // namespace gsparql
