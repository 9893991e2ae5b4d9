#include "engine/query/update_runner.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "engine/query/graph_forms.h"
#include "engine/query/query_runner.h"
#include "gsparql/error.h"
#include "parser/parse.h"
#include "rdf/term.h"
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

// Whether the generation holds the triple (ids from the query's codec) in
// `graph` ("" the default graph, else "<iri>").
bool stored(const Triple& t, const std::string& graph, TermCodec& terms) {
  const auto g =
      graph.empty() ? std::optional<uint32_t>(NamedGraphs::kDefaultGraph) : terms.store().graphs().find(graph);
  const auto s = terms.vertexOf(t[0]), o = terms.vertexOf(t[2]);
  if (!g || !s || !o) return false;
  const auto p = terms.predicateOf(t[1], *g);
  if (!p) return false;
  const auto objects = terms.store().adjacency(pcsr::Direction::Out).predicate(*p).neighbours(*s);
  return std::binary_search(objects.begin(), objects.end(), *o);
}

bool sameGraph(const sparql::GraphTarget& a, const sparql::GraphTarget& b) {
  return a.kind == b.kind && a.iri == b.iri;
}

// ADD, MOVE and COPY as the operations Update 3.2.3-3.2.5 define them by.
std::string graphRef(const sparql::GraphTarget& g) {
  return g.kind == GraphKind::Default ? "DEFAULT" : "GRAPH " + g.iri;
}
std::string allTriplesOf(const sparql::GraphTarget& g) {
  return g.kind == GraphKind::Default ? "?s ?p ?o" : "GRAPH " + g.iri + " { ?s ?p ?o }";
}
std::string addMoveCopyText(const sparql::UpdateOperation& op) {
  std::string text;
  if (op.kind != Kind::Add) text += "DROP SILENT " + graphRef(op.target) + " ;\n";
  text += "INSERT { " + allTriplesOf(op.target) + " } WHERE { " + allTriplesOf(op.from) + " }";
  if (op.kind == Kind::Move) text += " ;\nDROP SILENT " + graphRef(op.from);
  return text;
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
      case Kind::InsertData:
      case Kind::DeleteData:
      case Kind::DeleteWhere:
      case Kind::Modify:
        return applyTemplates(op);
      case Kind::Load:
        return load(op);
      case Kind::Clear:
      case Kind::Drop:
        return clear(op);
      case Kind::Create:
        if (exists(op.target.iri) && !op.silent) fail(op, "graph " + op.target.iri + " already exists");
        created_.insert(op.target.iri);
        return;
      case Kind::Add:
      case Kind::Move:
      case Kind::Copy:
        return addMoveCopy(op);
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
    if (context_.requestInScope > 0) blankPrefix_ += std::to_string(context_.requestInScope) + "_";
  }

  void applyTemplates(const sparql::UpdateOperation& op) {
    // What this operation reads or deletes must include the earlier changes.
    if ((op.hasPattern() && !changes_.empty()) || (!op.deleteQuads.empty() && loaded_)) {
      readFrom(context_.materialize(changes_));
    }
    sparql::Query query;
    query.form = sparql::Query::Form::Select;
    query.pos = op.pos;
    query.pattern = op.where ? op.where : std::make_shared<const sparql::Op>();  // an empty BGP:
                                                                                 // one solution
    setDataset(op, query);
    QueryOutcome solutions = runQuery(query, *store_, context_.executor, *orderer_, context_.query);
    TermCodec& terms = *solutions.terms;
    std::map<std::string, std::string> freshBlanks;  // this query's blank node -> the stored label
    // DELETE before INSERT, both over the same solutions (Update 3.1.3).
    const QueryLimits& limits = context_.query.run.limits;
    const auto toDelete = constructQuads(op.deleteQuads, solutions.rows, solutions.variables, terms, limits);
    const auto toInsert = constructQuads(op.insertQuads, solutions.rows, solutions.variables, terms, limits);
    context_.query.run.limits.checkMemory((toDelete.size() + toInsert.size()) * sizeof(GraphTriple), "the update's triples");
    for (const auto& [t, g] : toDelete) {
      // Deleting what is not there changes nothing, and needs no new
      // generation.
      const std::string graph = graphOf(g, op, terms);
      changes_.remove(termTriple(t, graph, terms, freshBlanks), stored(t, graph, terms));
      context_.query.run.limits.checkMemory(changes_.bytes(), "the update's changes");
    }
    for (const auto& [t, g] : toInsert) {
      const std::string graph = graphOf(g, op, terms);
      TermTriple triple = termTriple(t, graph, terms, freshBlanks);
      // Inserting what is there already changes nothing either.
      if (changes_.clearsExisting(graph) || !stored(t, graph, terms) || changes_.deleted().count(triple) > 0) {
        changes_.insert(std::move(triple));
        context_.query.run.limits.checkMemory(changes_.bytes(), "the update's changes");
      }
    }
  }

  // USING and USING NAMED name the pattern's dataset; WITH, without them,
  // its default graph only (Update 3.1.3).
  void setDataset(const sparql::UpdateOperation& op, sparql::Query& query) const {
    if (!op.usingGraphs.empty() || !op.usingNamedGraphs.empty()) {
      query.fromGraphs = op.usingGraphs;
      query.fromNamedGraphs = op.usingNamedGraphs;
    } else if (!op.with.empty()) {
      query.fromGraphs = {op.with};
      for (uint32_t g : store_->graphs().named()) query.fromNamedGraphs.push_back(store_->graphs().name(g));
    }
  }

  // The graph a template's quad goes to: its own, else WITH's, else the default
  // graph ("").
  static std::string graphOf(ValueId graph, const sparql::UpdateOperation& op, TermCodec& terms) {
    return isBound(graph) ? std::string(terms.term(graph)) : op.with;
  }

  // A named graph exists while it has a triple, or since CREATE in this
  // request.
  bool exists(const std::string& graph) const {
    return (store_->graphs().find(graph) && !changes_.clearsExisting(graph)) || changes_.adds(graph) ||
           created_.contains(graph);
  }

  void addMoveCopy(const sparql::UpdateOperation& op) {
    if (sameGraph(op.from, op.target)) return;  // changes nothing (Update 3.2.3-3.2.5)
    if (op.from.kind == GraphKind::Named && !exists(op.from.iri)) {
      if (!op.silent) fail(op, "graph " + op.from.iri + " does not exist");
      return;
    }
    for (const auto& step : sparql::parseUpdate(addMoveCopyText(op)).operations) apply(step);
  }

  void load(const sparql::UpdateOperation& op) {
    if (!context_.allowLoad)
      fail(op,
           "LOAD is not allowed here (it would read files of the server's "
           "machine)");
    if (auto path = loadablePath(op, context_)) {
      changes_.load(*path, op.target.kind == GraphKind::Named ? op.target.iri : "");
      loaded_ = true;
    }
  }

  // Whether a graph ("" the default graph; nullopt: any named graph) has
  // triples to clear: clearing nothing writes no generation.
  bool holdsTriples(const std::optional<std::string>& graph) const {
    const NamedGraphs& graphs = store_->graphs();
    if (graph && graph->empty()) {
      return (graphs.triples(NamedGraphs::kDefaultGraph) > 0 && !changes_.clearsExisting("")) || changes_.adds("");
    }
    if (graph) return exists(*graph);
    const auto named = graphs.named();
    return changes_.addsToNamedGraph() ||
           std::any_of(named.begin(), named.end(), [&](uint32_t g) { return exists(graphs.name(g)); });
  }

  void clearIfHeld(const std::optional<std::string>& graph) {
    if (holdsTriples(graph)) changes_.clear(graph);
  }

  void clear(const sparql::UpdateOperation& op) {
    switch (op.target.kind) {
      case GraphKind::AllNamed:
        clearIfHeld(std::nullopt);
        break;
      case GraphKind::Named:
        if (!exists(op.target.iri)) {
          if (!op.silent) fail(op, "graph " + op.target.iri + " does not exist");
          return;
        }
        clearIfHeld(op.target.iri);
        created_.erase(op.target.iri);
        break;
      case GraphKind::Default:
        clearIfHeld("");
        break;
      case GraphKind::All:
        clearIfHeld("");
        clearIfHeld(std::nullopt);
        break;
    }
    loaded_ = !changes_.loadedFiles().empty();
  }

  // The terms of a triple; a blank node the query made gets a label of the
  // request's scope (loader.h), the same for the same node.
  TermTriple termTriple(const Triple& t, const std::string& graph, TermCodec& terms,
                        std::map<std::string, std::string>& freshBlanks) {
    TermTriple out;
    for (size_t i = 0; i < 3; ++i) {
      std::string term(terms.term(t[i]));
      out[i] = term.starts_with("_:") && !terms.vertexOf(t[i]) ? storedBlank(term, freshBlanks) : storedForm(term, freshBlanks);
    }
    out[1] = graphPredicateKey(out[1], graph);
    return out;
  }

  // The label a blank node the query made gets in the store, one per update.
  std::string storedBlank(const std::string& term, std::map<std::string, std::string>& freshBlanks) {
    auto [it, added] = freshBlanks.try_emplace(term, blankPrefix_ + std::to_string(freshCount_));
    if (added) ++freshCount_;
    return it->second;
  }

  // A triple term with the query's blank nodes inside relabelled as stored ones.
  std::string storedForm(std::string term, std::map<std::string, std::string>& freshBlanks) {
    rdf::TripleTermParts parts;
    if (term.find("_:g") == std::string::npos || !rdf::splitTripleTerm(term, &parts)) return term;
    auto stored = [&](std::string_view part) {
      return TermCodec::isQueryBlankNode(part) ? storedBlank(std::string(part), freshBlanks)
                                               : storedForm(std::string(part), freshBlanks);
    };
    return rdf::tripleTerm(stored(parts.subject), parts.predicate, stored(parts.object));
  }

  const UpdateContext& context_;
  const GraphStore* store_ = nullptr;
  std::unique_ptr<JoinOrderer> orderer_;
  std::string blankPrefix_;
  uint64_t freshCount_ = 0;  // blank nodes labelled so far
  GraphChanges changes_;
  bool loaded_ = false;            // changes_ loads files
  std::set<std::string> created_;  // CREATE GRAPH in this request (empty graphs are not stored)
};

}  // namespace

GraphChanges planUpdate(const sparql::UpdateRequest& request, const GraphStore& store, const UpdateContext& context) {
  UpdatePlanner planner(store, context);
  for (const auto& op : request.operations) planner.apply(op);
  return planner.take();
}

}  // namespace gsparql::engine
