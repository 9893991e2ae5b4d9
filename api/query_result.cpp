#include "api/query_result_impl.h"
#include "api/result_sink.h"
#include "engine/results/result_writer.h"
#include "gsparql/error.h"

namespace gsparql {
namespace {
constexpr size_t kRowsPerBatch = 4096;
}

QueryResult::QueryResult(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
QueryResult::~QueryResult() = default;
QueryResult::QueryResult(QueryResult&&) noexcept = default;
QueryResult& QueryResult::operator=(QueryResult&&) noexcept = default;

bool QueryResult::isBoolean() const { return impl_->outcome.form == sparql::Query::Form::Ask; }
bool QueryResult::booleanValue() const { return impl_->outcome.askValue; }
bool QueryResult::isGraph() const { return impl_->outcome.isGraph(); }
const std::vector<std::string>& QueryResult::variables() const { return impl_->outcome.variables; }
size_t QueryResult::rowCount() const { return impl_->outcome.rows.rows; }
size_t QueryResult::tripleCount() const { return impl_->outcome.triples.size(); }
const QueryTimings& QueryResult::timings() const { return impl_->timings; }
std::string QueryResult::explain() const { return engine::explainPlan(impl_->outcome, *impl_->store); }

std::vector<RowEstimate> QueryResult::rowEstimates() const {
  std::vector<RowEstimate> out;
  for (auto& e : engine::rowEstimates(impl_->outcome)) {
    out.push_back({std::move(e.what), e.estimated, e.actual,
                   engine::qError(e.estimated, static_cast<double>(e.actual))});
  }
  return out;
}

void QueryResult::forEachRow(const std::function<void(std::span<const Term>)>& visit) const {
  engine::TermDecoder decoder(*impl_->outcome.terms, impl_->outcome.rows);
  const size_t width = impl_->outcome.variables.size();
  std::vector<Term> cells;
  for (size_t begin = 0; begin < rowCount(); begin += kRowsPerBatch) {
    size_t end = std::min(rowCount(), begin + kRowsPerBatch);
    decoder.decode(begin, end, cells);
    for (size_t r = 0; r < end - begin; ++r) visit(std::span<const Term>(cells.data() + r * width, width));
  }
}

// The public enum mirrors the writers' one, value for value.
static_assert(static_cast<int>(ResultFormat::Table) == static_cast<int>(results::Format::Table));
static_assert(static_cast<int>(ResultFormat::Tsv) == static_cast<int>(results::Format::Tsv));
static_assert(static_cast<int>(ResultFormat::Csv) == static_cast<int>(results::Format::Csv));
static_assert(static_cast<int>(ResultFormat::Json) == static_cast<int>(results::Format::Json));
static_assert(static_cast<int>(ResultFormat::Xml) == static_cast<int>(results::Format::Xml));
static_assert(static_cast<int>(ResultFormat::NTriples) == static_cast<int>(results::Format::NTriples));
static_assert(static_cast<int>(ResultFormat::Turtle) == static_cast<int>(results::Format::Turtle));
static_assert(static_cast<int>(ResultFormat::NQuads) == static_cast<int>(results::Format::NQuads));
static_assert(static_cast<int>(ResultFormat::TriG) == static_cast<int>(results::Format::TriG));
static_assert(static_cast<int>(ResultFormat::RdfXml) == static_cast<int>(results::Format::RdfXml));
static_assert(static_cast<int>(ResultFormat::JsonLd) == static_cast<int>(results::Format::JsonLd));

std::optional<ResultFormat> resultFormatFromName(std::string_view name) {
  auto format = results::formatFromName(name);
  if (!format) return std::nullopt;
  return static_cast<ResultFormat>(*format);
}

std::string_view resultFormatName(ResultFormat format) { return results::formatName(static_cast<results::Format>(format)); }

bool isGraphFormat(ResultFormat format) { return results::isGraphFormat(static_cast<results::Format>(format)); }

void QueryResult::forEachTriple(
    const std::function<void(std::string_view, std::string_view, std::string_view)>& visit) const {
  engine::TermCodec& terms = *impl_->outcome.terms;
  for (size_t begin = 0; begin < tripleCount(); begin += kRowsPerBatch) {
    const size_t end = std::min(tripleCount(), begin + kRowsPerBatch);
    std::vector<engine::ValueId> ids;
    for (size_t t = begin; t < end; ++t) ids.insert(ids.end(), impl_->outcome.triples[t].begin(), impl_->outcome.triples[t].end());
    terms.prefetch(ids);
    for (size_t t = begin; t < end; ++t) {
      const auto& triple = impl_->outcome.triples[t];
      visit(terms.term(triple[0]), terms.term(triple[1]), terms.term(triple[2]));
    }
  }
}

void QueryResult::write(std::ostream& out, ResultFormat format) const {
  checkFormatFits(format, isGraph(), isBoolean());
  if (isGraph()) {
    // Table: Turtle.
    const auto graphFormat = format == ResultFormat::Table ? results::Format::Turtle
                                                           : static_cast<results::Format>(format);
    auto writer = results::makeGraphWriter(graphFormat, out, impl_->prefixes);
    try {
      forEachTriple([&](std::string_view s, std::string_view p, std::string_view o) { writer->triple(s, p, o); });
    } catch (const results::WriteError& e) {  // RDF/XML: a predicate it cannot name
      throw QueryError(e.what());
    }
    writer->end();
    return;
  }
  auto writer = results::makeResultWriter(static_cast<results::Format>(format), out, impl_->prefixes);
  if (isBoolean()) return writer->boolean(booleanValue());
  writer->begin(variables());
  forEachRow([&](std::span<const Term> row) { writer->row(row); });
  writer->end();
}

std::vector<std::vector<std::optional<std::string>>> QueryResult::rows() const {
  std::vector<std::vector<std::optional<std::string>>> out;
  forEachRow([&](std::span<const Term> row) {
    auto& copy = out.emplace_back();
    for (const Term& t : row) copy.push_back(t ? std::optional<std::string>(*t) : std::nullopt);
  });
  return out;
}

}  // namespace gsparql
