#include "engine/physical/service_join.h"

#include <set>
#include <unordered_map>

#include "engine/physical/compatible_rows.h"
#include "engine/service/http_post.h"
#include "engine/service/remote_failure.h"
#include "engine/service/remote_query.h"
#include "engine/service/sparql_results.h"
#include "gsparql/error.h"
#include "parser/print.h"
#include "rdf/term.h"

namespace gsparql::engine {
namespace {

// What one input row costs, for the estimates of the operators above: a
// share of a request, far more than any local work on the row.
constexpr double kCostPerInputRow = 1000;

std::string at(sparql::Position pos) { return " at " + std::to_string(pos.line) + ":" + std::to_string(pos.column); }

// The remote solutions as ids of the query's terms: remote blank nodes
// become fresh ones, one per label of this answer.
Table toTable(const service::SparqlResults& results, const std::vector<std::string>& variables, TermCodec& terms) {
  if (results.boolean) throw service::RemoteFailure("the answer is a boolean, not solutions");
  std::vector<std::optional<size_t>> source;
  for (const auto& v : variables) {
    const auto it = std::find(results.variables.begin(), results.variables.end(), v);
    source.push_back(it == results.variables.end() ? std::nullopt
                                                   : std::optional(static_cast<size_t>(it - results.variables.begin())));
  }
  std::unordered_map<std::string, ValueId> blanks;
  Table table(variables.size());
  std::vector<ValueId> row(variables.size());
  for (const auto& cells : results.rows) {
    for (size_t c = 0; c < variables.size(); ++c) {
      const std::optional<std::string>* cell = source[c] ? &cells[*source[c]] : nullptr;
      if (cell == nullptr || !*cell) {
        row[c] = kUndefined;
      } else if (rdf::termKind(**cell) == rdf::TermKind::Blank) {
        auto [it, added] = blanks.try_emplace(**cell, kUndefined);
        if (added) it->second = terms.freshBlankNode();
        row[c] = it->second;
      } else {
        row[c] = terms.idOf(**cell);
      }
    }
    table.appendRow(row);
  }
  return table;
}

}  // namespace

ServiceJoin::ServiceJoin(OperatorPtr input, ServicePattern service)
    : Operator(mergedVariables(input->variables(), sparql::inScopeVariables(*service.pattern)),
               std::max(1.0, input->estimatedRows()),
               input->estimatedCost() + kCostPerInputRow * std::max(1.0, input->estimatedRows())),
      input_(std::move(input)), service_(std::move(service)),
      remoteVariables_(sparql::inScopeVariables(*service_.pattern)) {
  const SharedColumns shared = sharedColumns(input_->variables(), remoteVariables_);
  sharedInput_ = shared.left;
  sharedRemote_ = shared.right;
  for (const auto& v : variables()) {
    const auto it = std::find(remoteVariables_.begin(), remoteVariables_.end(), v);
    remoteOfOutput_.push_back(it == remoteVariables_.end()
                                  ? std::nullopt
                                  : std::optional(static_cast<size_t>(it - remoteVariables_.begin())));
  }
  if (service_.endpoint.kind == sparql::Term::Kind::Variable) endpointColumn_ = input_->columnOf(service_.endpoint.value);
}

std::string ServiceJoin::describe() const {
  std::string text = "Service " + sparql::toSparql(service_.endpoint) + (service_.silent ? " SILENT" : "");
  std::string names;
  for (size_t c : sharedInput_) names += " ?" + input_->variables()[c];
  text += names.empty() ? ", no shared variable" : ", on" + names;
  return text + ", " + std::to_string(requests_) + " request(s), " + std::to_string(remoteRows_) + " remote row(s)";
}

void ServiceJoin::openImpl(ExecutionContext& context) {
  input_->open(context);
  alone_.clear();
  requests_ = remoteRows_ = 0;
}

std::optional<Table> ServiceJoin::nextImpl(ExecutionContext& context) {
  while (auto batch = input_->next(context)) {
    Table out(variables().size());
    for (size_t begin = 0; begin < batch->rows; begin += kRowsPerRequest) {
      joinSlice(*batch, begin, std::min(batch->rows, begin + kRowsPerRequest), out, context);
    }
    if (out.rows > 0) return out;
  }
  return std::nullopt;
}

void ServiceJoin::joinSlice(const Table& input, size_t begin, size_t end, Table& out, ExecutionContext& context) {
  std::map<std::string, std::vector<size_t>> byEndpoint;
  std::vector<size_t> unusable;
  for (size_t r = begin; r < end; ++r) {
    if (auto endpoint = endpointOf(input, r, context)) {
      byEndpoint[*endpoint].push_back(r);
    } else {
      unusable.push_back(r);
    }
  }
  if (!unusable.empty()) unusableEndpoint(input, unusable, out);
  for (const auto& [endpoint, rows] : byEndpoint) ask(endpoint, input, rows, out, context);
}

std::optional<std::string> ServiceJoin::endpointOf(const Table& input, size_t row, ExecutionContext& context) const {
  if (service_.endpoint.isConstant()) {
    const std::string& iri = service_.endpoint.value;
    return iri.substr(1, iri.size() - 2);
  }
  if (!endpointColumn_) return std::nullopt;
  const ValueId id = input.at(row, *endpointColumn_);
  if (!isBound(id)) return std::nullopt;
  const std::string_view term = context.terms.term(id);
  if (rdf::termKind(term) != rdf::TermKind::Iri) return std::nullopt;
  return std::string(term.substr(1, term.size() - 2));
}

sparql::Table ServiceJoin::bindingsOf(const Table& input, const std::vector<size_t>& rows,
                                      ExecutionContext& context) const {
  sparql::Table bindings;
  for (size_t c : sharedRemote_) bindings.vars.push_back(remoteVariables_[c]);
  // The distinct values of the shared variables; a local blank node means
  // nothing to the endpoint (and cannot be written in VALUES): sent as
  // UNDEF, the local join then keeps only what is compatible with it.
  std::set<std::vector<std::optional<std::string>>> keys;
  for (size_t r : rows) {
    std::vector<std::optional<std::string>> key;
    for (size_t c : sharedInput_) {
      const ValueId id = input.at(r, c);
      const std::string_view term = isBound(id) ? context.terms.term(id) : std::string_view();
      key.push_back(term.empty() || rdf::termKind(term) == rdf::TermKind::Blank ? std::nullopt
                                                                                : std::optional<std::string>(term));
    }
    keys.insert(std::move(key));
  }
  bindings.rows.assign(keys.begin(), keys.end());
  return bindings;
}

void ServiceJoin::ask(const std::string& endpoint, const Table& input, const std::vector<size_t>& rows, Table& out,
                      ExecutionContext& context) {
  const sparql::Table bindings = bindingsOf(input, rows, context);
  std::optional<Table> fresh;
  const std::optional<Table>* answered = &fresh;
  if (bindings.vars.empty()) {
    auto [it, added] = alone_.try_emplace(endpoint);
    if (added) it->second = answer(endpoint, bindings, context);
    answered = &it->second;
  } else {
    fresh = answer(endpoint, bindings, context);
  }
  if (!*answered) return passUnchanged(input, rows, out);
  const Table& remote = **answered;
  const CompatibleRows index(remote, sharedRemote_);
  StopCheck stop(context.run.limits);
  std::vector<ValueId> key(sharedInput_.size());
  for (size_t r : rows) {
    for (size_t k = 0; k < key.size(); ++k) key[k] = input.at(r, sharedInput_[k]);
    index.forEachCompatible(key, [&](uint32_t match) {
      stop();
      appendMergedRow(input, r, remote, match, remoteOfOutput_, out);
    });
  }
}

std::optional<Table> ServiceJoin::answer(const std::string& endpoint, const sparql::Table& bindings,
                                         ExecutionContext& context) {
  ++requests_;
  try {
    const service::HttpReply reply = service::postQuery(
        endpoint, service::remoteQueryText(service_.pattern, bindings), context.run.service, context.run.limits);
    Table table = toTable(service::readResults(reply.contentType, reply.body), remoteVariables_, context.terms);
    remoteRows_ += table.rows;
    return table;
  } catch (const service::RemoteFailure& e) {
    if (service_.silent) return std::nullopt;
    throw QueryError("SERVICE <" + endpoint + ">" + at(service_.pos) + " failed: " + e.what(), service_.pos.line,
                     service_.pos.column);
  }
}

void ServiceJoin::unusableEndpoint(const Table& input, const std::vector<size_t>& rows, Table& out) const {
  if (!service_.silent) {
    throw QueryError("SERVICE " + sparql::toSparql(service_.endpoint) + at(service_.pos) +
                         ": the endpoint variable is unbound or not an IRI",
                     service_.pos.line, service_.pos.column);
  }
  passUnchanged(input, rows, out);
}

void ServiceJoin::passUnchanged(const Table& input, const std::vector<size_t>& rows, Table& out) {
  for (size_t r : rows) {
    for (size_t c = 0; c < out.width(); ++c) out.columns[c].push_back(c < input.width() ? input.at(r, c) : kUndefined);
    ++out.rows;
  }
}

}  // namespace gsparql::engine
