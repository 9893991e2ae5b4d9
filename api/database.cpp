#include "gsparql/database.h"

#include <ostream>

#include <chrono>

#include "api/query_result_impl.h"
#include "loaders/loader.h"
#include "parser/parse.h"
#include "storage/graph_store.h"

namespace gsparql {
namespace {

std::unique_ptr<engine::Executor> executorFor(Backend backend) {
  if (backend == Backend::Gpu) throw QueryError("this build has no GPU backend yet; use --backend cpu");
  return engine::makeCpuExecutor();
}

sparql::Query parse(std::string_view text) {
  try {
    return sparql::parseQuery(text);
  } catch (const sparql::SyntaxError& e) {
    throw QueryError(e.what(), e.position().line, e.position().column);
  }
}

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

QueryResult Database::query(std::string_view text, const QueryOptions& options) const {
  auto start = std::chrono::steady_clock::now();
  sparql::Query parsed = parse(text);
  auto impl = std::make_unique<QueryResult::Impl>();
  impl->timings.parseMilliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  auto executor = executorFor(options.backend);
  engine::ExecutionOptions execution{options.semantics == Semantics::Isomorphism, options.cancel};
  impl->outcome = engine::runQuery(parsed, *store_, *executor, *engine::makeStatisticsOrderer(), execution);
  impl->store = store_.get();
  impl->timings.planMilliseconds = impl->outcome.planMilliseconds;
  impl->timings.executeMilliseconds = impl->outcome.executeMilliseconds;
  impl->timings.modifiersMilliseconds = impl->outcome.modifiersMilliseconds;
  return QueryResult(std::move(impl));
}

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
