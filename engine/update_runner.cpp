#include "engine/update_runner.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "engine/graph_forms.h"
#include "engine/query_runner.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using Kind = sparql::UpdateOperation::Kind;
using GraphKind = sparql::GraphTarget::Kind;

constexpr std::string_view kFileScheme = "file://";

[[noreturn]] void fail(const sparql::UpdateOperation& op, const std::string& message) {
  throw QueryError(std::to_string(op.pos.line) + ":" + std::to_string(op.pos.column) + ": " + message, op.pos.line,
                   op.pos.column);
}

// Whether the generation holds the triple (ids from the query's codec).
bool stored(const Triple& t, TermCodec& terms) {
  const auto s = terms.vertexOf(t[0]), o = terms.vertexOf(t[2]);
  const auto p = terms.predicateOf(t[1], NamedGraphs::kDefaultGraph);
  if (!s || !o || !p) return false;
  const auto objects = terms.store().adjacency(pcsr::Direction::Out).predicate(*p).neighbours(*s);
  return std::binary_search(objects.begin(), objects.end(), *o);
}

[[noreturn]] void failOnNamedGraph(const sparql::UpdateOperation& op) {
  fail(op, "named graphs are not stored yet (this database holds the default graph only); use SILENT to skip");
}

std::vector<sparql::TriplePattern> defaultGraphTemplate(const sparql::UpdateOperation& op,
                                                        const std::vector<sparql::Quad>& quads) {
  std::vector<sparql::TriplePattern> triples;
  for (const auto& q : quads) {
    if (!q.inDefaultGraph()) failOnNamedGraph(op);
    triples.push_back(q.triple);
  }
  return triples;
}

bool sameGraph(const sparql::GraphTarget& a, const sparql::GraphTarget& b) {
  return a.kind == b.kind && a.iri == b.iri;
}

// LOAD <file:///path>: the path, checked readable now (and, with SILENT,
// read through) so that SILENT can skip it.
std::optional<std::string> loadablePath(const sparql::UpdateOperation& op, const UpdateContext& context) {
  const std::string iri = op.source.substr(1, op.source.size() - 2);  // "<...>"
  if (!iri.starts_with(kFileScheme)) {
    if (op.silent) return std::nullopt;
    fail(op, "LOAD reads local files only (file:///path IRIs), not " + op.source);
  }
  std::string path = iri.substr(kFileScheme.size());
  if (path.starts_with("localhost/")) path = path.substr(std::string_view("localhost").size());
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    if (op.silent) return std::nullopt;
    fail(op, "LOAD: " + path + " is not a readable file");
  }
  if (op.silent && context.checkLoadable) {
    try {
      context.checkLoadable(path);
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  return path;
}

class UpdatePlanner {
 public:
  UpdatePlanner(const GraphStore& store, const UpdateContext& context) : context_(context) { readFrom(store); }

  void apply(const sparql::UpdateOperation& op) {
    switch (op.kind) {
      case Kind::InsertData: case Kind::DeleteData: case Kind::DeleteWhere: case Kind::Modify:
        return applyTemplates(op);
      case Kind::Load: return load(op);
      case Kind::Clear: case Kind::Drop: return clear(op);
      case Kind::Create:
        if (!op.silent) failOnNamedGraph(op);
        return;
      case Kind::Add: case Kind::Move: case Kind::Copy:
        // The same graph as source and destination changes nothing (Update 3.2.3-3.2.5).
        if (!sameGraph(op.from, op.target) && !op.silent) failOnNamedGraph(op);
        return;
    }
  }

  GraphChanges take() { return std::move(changes_); }

 private:
  void readFrom(const GraphStore& store) {
    store_ = &store;
    orderer_ = context_.makeOrderer(store);
    changes_ = GraphChanges();
    loaded_ = false;
    blankPrefix_ = "_:f" + std::to_string(store.catalog().inputFiles + 1) + "_u";
  }

  void applyTemplates(const sparql::UpdateOperation& op) {
    if (!op.with.empty() || !op.usingGraphs.empty() || !op.usingNamedGraphs.empty()) failOnNamedGraph(op);
    const auto deleted = defaultGraphTemplate(op, op.deleteQuads);
    const auto inserted = defaultGraphTemplate(op, op.insertQuads);
    // What this operation reads or deletes must include the earlier changes.
    if ((op.hasPattern() && !changes_.empty()) || (!deleted.empty() && loaded_)) {
      readFrom(context_.materialize(changes_));
    }
    sparql::Query query;
    query.form = sparql::Query::Form::Select;
    query.pos = op.pos;
    query.pattern = op.where ? op.where : std::make_shared<const sparql::Op>();  // an empty BGP: one solution
    QueryOutcome solutions = runQuery(query, *store_, context_.executor, *orderer_, context_.options);
    TermCodec& terms = *solutions.terms;
    std::map<std::string, std::string> freshBlanks;  // this query's blank node -> the stored label
    // DELETE before INSERT, both over the same solutions (Update 3.1.3).
    const std::vector<Triple> toDelete = constructTriples(deleted, solutions.rows, solutions.variables, terms);
    const std::vector<Triple> toInsert = constructTriples(inserted, solutions.rows, solutions.variables, terms);
    context_.options.checkMemory((toDelete.size() + toInsert.size()) * sizeof(Triple), "the update's triples");
    for (const Triple& t : toDelete) {
      // Deleting what is not there changes nothing, and needs no new generation.
      changes_.remove(termTriple(t, terms, freshBlanks), stored(t, terms));
      context_.options.checkMemory(changes_.bytes(), "the update's changes");
    }
    for (const Triple& t : toInsert) {
      TermTriple triple = termTriple(t, terms, freshBlanks);
      // Inserting what is there already changes nothing either.
      if (changes_.clearsExisting() || !stored(t, terms) || changes_.deleted().count(triple) > 0) {
        changes_.insert(std::move(triple));
        context_.options.checkMemory(changes_.bytes(), "the update's changes");
      }
    }
  }

  void load(const sparql::UpdateOperation& op) {
    if (!context_.allowLoad) fail(op, "LOAD is not allowed here (it would read files of the server's machine)");
    if (op.target.kind != GraphKind::Default) {
      if (op.silent) return;
      failOnNamedGraph(op);
    }
    if (auto path = loadablePath(op, context_)) {
      changes_.load(*path);
      loaded_ = true;
    }
  }

  void clear(const sparql::UpdateOperation& op) {
    switch (op.target.kind) {
      case GraphKind::AllNamed: return;  // there are none
      case GraphKind::Named:
        if (!op.silent) fail(op, "graph " + op.target.iri + " does not exist (this database holds the default graph only)");
        return;
      case GraphKind::Default: case GraphKind::All:
        changes_.clear();
        loaded_ = false;
        return;
    }
  }

  // The terms of a triple; a blank node the query made gets a label of the
  // request's scope (loader.h), the same for the same node.
  TermTriple termTriple(const Triple& t, TermCodec& terms, std::map<std::string, std::string>& freshBlanks) {
    TermTriple out;
    for (size_t i = 0; i < 3; ++i) {
      std::string term(terms.term(t[i]));
      if (term.starts_with("_:") && !terms.vertexOf(t[i])) {
        auto [it, added] = freshBlanks.try_emplace(term, blankPrefix_ + std::to_string(freshCount_));
        if (added) ++freshCount_;
        term = it->second;
      }
      out[i] = std::move(term);
    }
    return out;
  }

  const UpdateContext& context_;
  const GraphStore* store_ = nullptr;
  std::unique_ptr<JoinOrderer> orderer_;
  std::string blankPrefix_;
  uint64_t freshCount_ = 0;  // blank nodes labelled so far
  GraphChanges changes_;
  bool loaded_ = false;  // changes_ loads files
};

}  // namespace

GraphChanges planUpdate(const sparql::UpdateRequest& request, const GraphStore& store, const UpdateContext& context) {
  UpdatePlanner planner(store, context);
  for (const auto& op : request.operations) planner.apply(op);
  return planner.take();
}

}  // namespace gsparql::engine
