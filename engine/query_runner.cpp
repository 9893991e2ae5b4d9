#include "engine/query_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "engine/query_shape.h"
#include "engine/solution_modifiers.h"
#include "parser/query_graph.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The BGP columns the solution modifiers read, in BGP order: the executor
// returns only these, so unread columns are never copied (nor sent from the GPU).
std::vector<uint32_t> columnsRead(const QueryShape& shape, const BoundBgp& bgp) {
  std::vector<std::string> names;
  if (shape.count) {
    if (shape.count->argument) names.push_back(*shape.count->argument);
  } else if (!shape.ask) {
    names = shape.projection;
    for (const SortKey& key : shape.order) names.push_back(key.variable);
  }
  const bool everyVariable = shape.count && shape.count->distinct && !shape.count->argument;
  std::vector<uint32_t> columns;
  for (uint32_t c = 0; c < bgp.columnCount(); ++c) {
    const std::string name = columnName(bgp, c);
    const bool variable = !name.empty() && !name.starts_with("_:");
    if ((everyVariable && variable) || std::find(names.begin(), names.end(), name) != names.end()) {
      columns.push_back(c);
    }
  }
  return columns;
}

QueryOutcome applyModifiers(const QueryShape& shape, QueryOutcome full, const Dictionary& dictionary) {
  if (shape.count) return count(full, *shape.count);
  if (!shape.order.empty()) orderBy(full, shape.order, dictionary);
  QueryOutcome out = project(std::move(full), shape.projection);
  if (shape.distinct) keepFirstOfEachRow(out);
  if (shape.offset > 0 || shape.limit) slice(out, shape.offset, shape.limit);
  return out;
}

}  // namespace

QueryOutcome runQuery(const sparql::Query& query, const GraphStore& store, Executor& executor,
                      const JoinOrderer& orderer, const ExecutionOptions& callerOptions) {
  auto start = Clock::now();
  const QueryShape shape = shapeOf(query);
  BoundBgp bgp = bindBgp(sparql::QueryGraph::fromBgp(shape.triples), store.dictionary());
  BgpPlan plan = bgp.hasAbsentConstant ? BgpPlan{} : orderer.plan(bgp, store.catalog());
  ExecutionOptions options = callerOptions;
  if (!options.outputColumns) options.outputColumns = columnsRead(shape, bgp);
  const double planMs = millisecondsSince(start);

  start = Clock::now();
  ExecutionProfile profile;
  IdTable table = bgp.hasAbsentConstant ? IdTable(static_cast<uint32_t>(options.outputColumns->size()))
                                        : executor.execute(plan, bgp, store, options, profile);
  const double executeMs = millisecondsSince(start);

  start = Clock::now();
  const uint64_t matches = table.rows();
  QueryOutcome outcome;
  if (shape.ask) {
    outcome.ask = true;
    outcome.askValue = matches > 0;
  } else {
    outcome = applyModifiers(shape, bgpOutcome(bgp, std::move(table), *options.outputColumns), store.dictionary());
  }
  outcome.modifiersMilliseconds = millisecondsSince(start);
  outcome.executor = executor.name();
  outcome.bgp = std::move(bgp);
  outcome.plan = std::move(plan);
  outcome.profile = std::move(profile);
  outcome.matches = matches;
  outcome.planMilliseconds = planMs;
  outcome.executeMilliseconds = executeMs;
  return outcome;
}

namespace {

std::string vertexName(const BoundBgp& bgp, uint32_t v, const Dictionary& dictionary) {
  const auto& vertex = bgp.vertices[v];
  if (vertex.isBlank) return "_:" + vertex.name;
  if (vertex.isVariable) return "?" + vertex.name;
  return vertex.id == kNoId ? "(absent)" : dictionary.term(TermSpace::Vertex, vertex.id);
}

std::string predicateName(const BoundBgp& bgp, const BoundEdge& e, const Dictionary& dictionary) {
  if (e.predicateIsVariable) return "?" + bgp.predicateVariables[e.predicate];
  return dictionary.term(TermSpace::Predicate, e.predicate);
}

std::string describeUse(const BoundBgp& bgp, const EdgeUse& use, const Dictionary& dictionary) {
  const BoundEdge& e = bgp.edges[use.edge];
  return vertexName(bgp, e.from, dictionary) + " " + predicateName(bgp, e, dictionary) + " " +
         vertexName(bgp, e.to, dictionary);
}

std::string describeSource(const BoundBgp& bgp, const PlanStep& step, const Dictionary& dictionary) {
  switch (step.source) {
    case CandidateSource::Constant: return "constant";
    case CandidateSource::AllVertices: return "all vertices";
    case CandidateSource::PredicateKeys:
      return std::string(step.driver.direction == pcsr::Direction::Out ? "subjects" : "objects") + " of " +
             predicateName(bgp, bgp.edges[step.driver.edge], dictionary);
    case CandidateSource::Neighbours: return "neighbours via " + describeUse(bgp, step.driver, dictionary);
  }
  return "";
}

}  // namespace

std::string explainPlan(const QueryOutcome& outcome, const GraphStore& store) {
  const Dictionary& dictionary = store.dictionary();
  std::ostringstream out;
  out << "executor " << outcome.executor << ", " << outcome.plan.components.size() << " component(s)";
  if (outcome.bgp.hasAbsentConstant) out << ", a constant is absent from the data: no solutions";
  out << "\n";
  size_t profiled = 0;
  for (size_t c = 0; c < outcome.plan.components.size(); ++c) {
    out << "component " << c + 1 << ":\n";
    const auto& steps = outcome.plan.components[c].steps;
    for (size_t s = 0; s < steps.size(); ++s) {
      const PlanStep& step = steps[s];
      char numbers[160];
      const StepProfile* p = profiled < outcome.profile.steps.size() ? &outcome.profile.steps[profiled++] : nullptr;
      if (p != nullptr) {
        std::snprintf(numbers, sizeof numbers, "estimated %.0f, actual %llu, %.3f ms", step.estimatedRows,
                      static_cast<unsigned long long>(p->actualRows), p->milliseconds);
      } else {
        std::snprintf(numbers, sizeof numbers, "estimated %.0f, not run (an earlier step found nothing)",
                      step.estimatedRows);
      }
      out << "  " << s + 1 << ". " << vertexName(outcome.bgp, step.vertex, dictionary) << " from "
          << describeSource(outcome.bgp, step, dictionary) << "\n     " << numbers << "\n";
      for (const auto& check : step.checks) {
        out << "     check " << describeUse(outcome.bgp, check, dictionary) << "\n";
      }
    }
  }
  if (!outcome.profile.note.empty()) out << outcome.profile.note << "\n";
  out << "matches " << outcome.matches << "\n";
  return out.str();
}

}  // namespace gsparql::engine
