#include "engine/query/query_runner.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <sstream>
#include <string_view>

#include "engine/logical/logical_plan.h"
#include "engine/logical/rdfs_entailment.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/physical/slice.h"
#include "engine/planner/exists_probe.h"
#include "engine/planner/planner.h"
#include "engine/query/graph_forms.h"
#include "parser/parse.h"
#include "rdf/term.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using Clock = std::chrono::steady_clock;
using Form = sparql::Query::Form;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string nowTerm() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
  return rdf::literalTerm(text, {}, std::string(rdf::kXsd) + "dateTime");
}

// What the form reads of the WHERE clause's solutions.
Required requiredBy(const LogicalPlan& plan) {
  if (plan.form == Form::Select) return std::nullopt;
  return std::set<std::string>(plan.formVariables.begin(), plan.formVariables.end());
}

void explainOperator(const Operator& op, const GraphStore& store, int depth, std::ostringstream& out) {
  const std::string indent(static_cast<size_t>(depth) * 2, ' ');
  const OperatorProfile& run = op.profile();
  const std::optional<uint64_t> actual = run.ran ? std::optional(run.actualRows) : std::nullopt;
  out << indent << op.describe() << "  [" << rowNumbers(op.estimatedRows(), actual, run.milliseconds) << "]\n";
  for (const auto& line : op.details(store)) out << indent << "    " << line << "\n";
  for (const Operator* child : op.children()) explainOperator(*child, store, depth + 1, out);
}

// The query form's answer from all the solutions.
void shapeResult(const LogicalPlan& logical, const Operator& root, Table rows, const QueryLimits& limits,
                 QueryOutcome& outcome) {
  switch (logical.form) {
    case Form::Select:
      outcome.variables = root.variables();
      outcome.rows = std::move(rows);
      break;
    case Form::Ask: outcome.askValue = rows.rows > 0; break;
    case Form::Construct:
      outcome.triples = constructTriples(logical.constructTemplate, rows, root.variables(), *outcome.terms, limits);
      break;
    case Form::Describe:
      outcome.triples = describeResources(logical.describeTerms, rows, root.variables(), *outcome.terms);
      break;
  }
}

void addRowEstimates(const Operator& op, std::vector<RowEstimate>& out) {
  if (!op.profile().ran) return;
  out.push_back({op.describe(), op.estimatedRows(), op.profile().actualRows});
  if (const auto* scan = dynamic_cast<const BgpLeaf*>(&op)) {
    const auto& profiled = scan->executionProfile().steps;
    for (size_t k = 0; k < profiled.size(); ++k) {
      out.push_back({"join step " + std::to_string(k + 1) + " of " + op.describe(), profiled[k].estimatedRows,
                     profiled[k].actualRows});
    }
  }
  for (const Operator* child : op.children()) addRowEstimates(*child, out);
}

// Hands the root's batches to the sink as they come, until either is done.
void sendRows(Operator& root, ExecutionContext& context, RowSink& sink) {
  sink.begin(root.variables());
  root.open(context);
  while (auto batch = root.next(context)) {
    if (!sink.rows(*batch, context.terms)) return;
  }
}

// The schema RDFS entailment reads, from the query's default graph.
RdfsSchema readRdfsSchema(const sparql::Query& query, const GraphStore& store, Executor& executor,
                          const JoinOrderer& orderer, QueryRequest request) {
  sparql::Query schemaQuery = sparql::parseQuery(kRdfsSchemaQuery);
  schemaQuery.fromGraphs = query.fromGraphs;
  schemaQuery.fromNamedGraphs = query.fromNamedGraphs;
  request.rdfsEntailment = false;
  const QueryOutcome outcome = runQuery(schemaQuery, store, executor, orderer, request);
  RdfsSchema schema;
  const std::map<std::string_view, std::vector<std::pair<std::string, std::string>>*> byPredicate{
      {"<http://www.w3.org/2000/01/rdf-schema#subClassOf>", &schema.subClassOf},
      {"<http://www.w3.org/2000/01/rdf-schema#subPropertyOf>", &schema.subPropertyOf},
      {"<http://www.w3.org/2000/01/rdf-schema#domain>", &schema.domain},
      {"<http://www.w3.org/2000/01/rdf-schema#range>", &schema.range}};
  for (size_t row = 0; row < outcome.rows.rows; ++row) {
    const auto term = [&](size_t column) { return std::string(outcome.terms->term(outcome.rows.at(row, column))); };
    byPredicate.at(term(1))->emplace_back(term(0), term(2));
  }
  return schema;
}

}  // namespace

QueryOutcome runQuery(const sparql::Query& query, const GraphStore& store, Executor& executor,
                      const JoinOrderer& orderer, const QueryRequest& request, RowSink* sink) {
  auto start = Clock::now();
  const LogicalPlan logical = buildLogicalPlan(query);
  QueryOutcome outcome;
  outcome.form = logical.form;
  outcome.terms = std::make_shared<TermCodec>(store);
  const sparql::OpPtr pattern =
      request.rdfsEntailment ? entailRdfs(logical.root, readRdfsSchema(query, store, executor, orderer, request))
                             : logical.root;
  const TextRewrite text = rewriteTextSearches(pattern, store, request.run.limits);
  const Planner planner(store, orderer,
                        resolveDataset(logical.fromGraphs, logical.fromNamedGraphs, store.graphs(),
                                       request.unionDefaultGraph),
                        request.run.injective, request.run.limits, text.searches);
  OperatorPtr root = planner.plan(*text.root, requiredBy(logical));
  if (logical.form == Form::Ask) root = std::make_unique<Slice>(std::move(root), 0, 1);
  outcome.planMilliseconds = millisecondsSince(start);

  start = Clock::now();
  ExecutionContext context{store, *outcome.terms, executor, request.run, {}, nowTerm(), query.base};
  ExistsProbe exists(planner);
  context.exists = [&](const sparql::Op& pattern, const std::vector<std::string>& variables,
                       const expr::Solution& solution) { return exists(pattern, variables, solution, context); };
  if (sink != nullptr && logical.form == Form::Select) {
    outcome.variables = root->variables();
    sendRows(*root, context, *sink);
  } else {
    shapeResult(logical, *root, runToEnd(*root, context), context.run.limits, outcome);
  }
  outcome.executeMilliseconds = millisecondsSince(start);
  outcome.executor = executor.name();
  outcome.plan = std::move(root);
  return outcome;
}

std::vector<RowEstimate> rowEstimates(const QueryOutcome& outcome) {
  std::vector<RowEstimate> out;
  if (outcome.plan) addRowEstimates(*outcome.plan, out);
  return out;
}

std::string explainPlan(const QueryOutcome& outcome, const GraphStore& store) {
  std::ostringstream out;
  out << "BGP executor " << outcome.executor << "\n";
  if (outcome.plan) explainOperator(*outcome.plan, store, 0, out);
  return out.str();
}

}  // namespace gsparql::engine
