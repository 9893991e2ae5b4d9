#include "gsparql/database.h"

#include <ostream>

#include "loaders/loader.h"
#include "storage/graph_store.h"

namespace gsparql {
namespace {

std::vector<std::string> allTerms(const Dictionary& dictionary, TermSpace space, uint64_t count) {
  std::vector<std::string> terms(count);
  dictionary.forEach(space, [&](uint32_t id, std::string_view term) { terms.at(id) = term; });
  return terms;
}

}  // namespace

LoadSummary Database::load(const std::filesystem::path& dir, const std::vector<std::string>& inputs,
                           const LoadOptions& options) {
  return loadIntoDatabase(dir, inputs, options);
}

Database::Database(const std::filesystem::path& dir) : store_(std::make_unique<GraphStore>(dir)) {}
Database::~Database() = default;
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;

DatabaseStatistics Database::statistics() const {
  const Catalog& catalog = store_->catalog();
  DatabaseStatistics stats{catalog.generation, catalog.tripleCount, catalog.vertexCount, {}};
  auto names = allTerms(store_->dictionary(), TermSpace::Predicate, catalog.predicates.size());
  for (size_t p = 0; p < names.size(); ++p) {
    stats.predicates.push_back({std::move(names[p]), catalog.predicates[p]});
  }
  return stats;
}

void Database::dump(std::ostream& out) const {
  const Catalog& catalog = store_->catalog();
  auto vertices = allTerms(store_->dictionary(), TermSpace::Vertex, catalog.vertexCount);
  auto predicates = allTerms(store_->dictionary(), TermSpace::Predicate, catalog.predicates.size());
  const AdjacencyFile& adjacency = store_->adjacency(pcsr::Direction::Out);
  std::string line;
  for (uint32_t p = 0; p < adjacency.predicateCount(); ++p) {
    const PredicateAdjacency& edges = adjacency.predicate(p);
    for (size_t k = 0; k < edges.keys().size(); ++k) {
      for (uint32_t o : edges.neighboursAt(k)) {
        line.clear();
        line.append(vertices[edges.keys()[k]]).append(" ").append(predicates[p]).append(" ");
        line.append(vertices[o]).append(" .\n");
        out << line;
      }
    }
  }
}

void Database::verify() const { store_->verify(); }

}  // namespace gsparql
