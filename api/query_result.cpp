#include "api/query_result_impl.h"
#include "engine/results/result_writer.h"

namespace gsparql {
namespace {
constexpr size_t kRowsPerBatch = 4096;
}

QueryResult::QueryResult(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
QueryResult::~QueryResult() = default;
QueryResult::QueryResult(QueryResult&&) noexcept = default;
QueryResult& QueryResult::operator=(QueryResult&&) noexcept = default;

bool QueryResult::isBoolean() const { return impl_->outcome.ask; }
bool QueryResult::booleanValue() const { return impl_->outcome.askValue; }
const std::vector<std::string>& QueryResult::variables() const { return impl_->outcome.variables; }
size_t QueryResult::rowCount() const { return impl_->outcome.rows.rows(); }
const QueryTimings& QueryResult::timings() const { return impl_->timings; }
std::string QueryResult::explain() const { return engine::explainPlan(impl_->outcome, *impl_->store); }

void QueryResult::forEachRow(const std::function<void(std::span<const Term>)>& visit) const {
  engine::TermDecoder decoder(impl_->store->dictionary(), impl_->outcome);
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

std::optional<ResultFormat> resultFormatFromName(std::string_view name) {
  auto format = results::formatFromName(name);
  if (!format) return std::nullopt;
  return static_cast<ResultFormat>(*format);
}

void QueryResult::write(std::ostream& out, ResultFormat format) const {
  auto writer = results::makeResultWriter(static_cast<results::Format>(format), out);
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
