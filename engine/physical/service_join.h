#pragma once
// SERVICE (SPARQL 1.1 Federated Query) as a bind join: the input's rows, a
// slice at a time, go to the endpoint as a VALUES block of the variables
// the pattern shares with them (engine/service/remote_query.h), and the
// solutions that come back join the rows they are compatible with. SERVICE
// ?e sends each slice's rows to the endpoint each binds ?e to. SILENT: a
// request that fails yields the empty solution, so its rows pass unchanged.
// Remote blank nodes are fresh terms, distinct for each answer.
#include <map>

#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

struct ServicePattern {
  sparql::Term endpoint;  // an IRI, or a variable the input binds
  sparql::OpPtr pattern;
  bool silent = false;
  sparql::Position pos;
};

class ServiceJoin final : public Operator {
 public:
  // Input rows per request: a VALUES block of a few hundred rows keeps
  // requests small for any endpoint, and their number low.
  static constexpr size_t kRowsPerRequest = 200;

  ServiceJoin(OperatorPtr input, ServicePattern service);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {input_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  // Rows [begin, end) of `input` joined with their endpoints' answers, into `out`.
  void joinSlice(const Table& input, size_t begin, size_t end, Table& out, ExecutionContext& context);
  // The endpoint row `row` is sent to; nullopt where ?e is unbound or not an IRI.
  std::optional<std::string> endpointOf(const Table& input, size_t row, ExecutionContext& context) const;
  // The VALUES block of `rows`: the distinct values of the shared variables.
  sparql::Table bindingsOf(const Table& input, const std::vector<size_t>& rows, ExecutionContext& context) const;
  // Joins `rows` of `input` with the endpoint's answer for them, into `out`.
  void ask(const std::string& endpoint, const Table& input, const std::vector<size_t>& rows, Table& out,
           ExecutionContext& context);
  // The solutions of one request as a table of the pattern's variables;
  // nullopt: it failed under SILENT (else a QueryError naming the endpoint).
  std::optional<Table> answer(const std::string& endpoint, const sparql::Table& bindings, ExecutionContext& context);
  // Rows whose ?e is unbound or not an IRI: a QueryError, or under SILENT the rows unchanged.
  void unusableEndpoint(const Table& input, const std::vector<size_t>& rows, Table& out) const;
  // `rows` joined with the empty solution: what SILENT makes of a failure.
  static void passUnchanged(const Table& input, const std::vector<size_t>& rows, Table& out);

  OperatorPtr input_;
  ServicePattern service_;
  std::vector<std::string> remoteVariables_;  // the pattern's, as its answers' columns
  std::vector<size_t> sharedInput_, sharedRemote_;  // the columns of the shared variables
  std::vector<std::optional<size_t>> remoteOfOutput_;
  std::optional<size_t> endpointColumn_;
  // The answer to the pattern alone (no shared variable), by endpoint:
  // asked once (nullopt: it failed under SILENT).
  std::map<std::string, std::optional<Table>> alone_;
  uint64_t requests_ = 0, remoteRows_ = 0;
};

}  // namespace gsparql::engine
