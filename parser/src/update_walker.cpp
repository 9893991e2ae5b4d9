// The tree walker's part for SPARQL 1.1 Update (section 3 of the Update
// recommendation; the restrictions of its section 19.6 notes 8-9 are checked
// here, as the grammar cannot say them).
#include "parser/src/walker.h"

#include "parser/syntax_error.h"

namespace gsparql::sparql {
namespace {

using Kind = UpdateOperation::Kind;

// ADD, MOVE and COPY: the same shape under three rule types.
template <typename Context, typename Graph>
void transfer(Context* ctx, UpdateOperation& op, Kind kind, Graph graphOrDefault) {
  op.kind = kind;
  op.silent = ctx->SILENT() != nullptr;
  op.from = graphOrDefault(ctx->graphOrDefault(0));
  op.target = graphOrDefault(ctx->graphOrDefault(1));
}

bool hasVariable(const Quad& q) {
  for (const Term* t : {&q.triple.subject, &q.triple.predicate, &q.triple.object, &q.graph}) {
    if (t->kind == Term::Kind::Variable) return true;
  }
  return false;
}

bool hasBlankNode(const Quad& q) {
  return q.triple.subject.kind == Term::Kind::Blank || q.triple.object.kind == Term::Kind::Blank;
}

}  // namespace

UpdateRequest Walker::update(P::UpdateUnitContext* ctx) {
  UpdateRequest out;
  const auto prologues = ctx->prologue();
  const auto operations = ctx->update1();
  std::set<std::string> earlierLabels;  // of the INSERT DATA operations before
  for (size_t i = 0; i < operations.size(); ++i) {
    prologue(prologues[i]);  // each prologue adds to those before it
    out.operations.push_back(operation(operations[i]));
    if (out.operations.back().kind == Kind::InsertData) checkLabelsNotReused(out.operations.back(), earlierLabels);
  }
  return out;
}

// A blank node label of INSERT DATA names one node for the whole request,
// so the recommendation forbids it in two operations (Query 19.6).
void Walker::checkLabelsNotReused(const UpdateOperation& op, std::set<std::string>& earlierLabels) const {
  std::set<std::string> labels;
  for (const Quad& q : op.insertQuads) {
    for (const Term* t : {&q.triple.subject, &q.triple.object}) {
      if (t->kind != Term::Kind::Blank) continue;
      if (earlierLabels.count(t->value) > 0) {
        fail(q.triple.pos, "blank node label _:" + t->value + " is used in an earlier operation of this request");
      }
      labels.insert(t->value);
    }
  }
  earlierLabels.insert(labels.begin(), labels.end());
}

UpdateOperation Walker::operation(P::Update1Context* ctx) {
  UpdateOperation op;
  op.pos = at(ctx);
  auto graph = [this](P::GraphOrDefaultContext* c) { return graphOrDefault(c); };
  if (auto* c = ctx->insertData()) {
    op.kind = Kind::InsertData;
    op.insertQuads = groundQuads(c->quadData()->quads(), false);
    // Blank nodes inside triple terms: new ones, bound above an empty pattern.
    std::vector<TriplePattern*> templ;
    for (Quad& q : op.insertQuads) templ.push_back(&q.triple);
    OpPtr bound = translator_.bindTemplateTripleTerms(std::make_shared<const Op>(), templ);
    if (bound->kind != Op::Kind::Bgp) op.where = std::move(bound);
  } else if (auto* c = ctx->deleteData()) {
    op.kind = Kind::DeleteData;
    op.deleteQuads = groundQuads(c->quadData()->quads(), true);
  } else if (auto* c = ctx->deleteWhere()) {
    op.kind = Kind::DeleteWhere;
    op.deleteQuads = quads(c->quadPattern()->quads());
    rejectBlankNodes(op.deleteQuads, "DELETE WHERE");
    op.where = quadsAsPattern(op.deleteQuads, op.pos);
  } else if (auto* c = ctx->modify()) {
    modify(c, op);
  } else if (auto* c = ctx->load()) {
    op.kind = Kind::Load;
    op.silent = c->SILENT() != nullptr;
    op.source = iri(c->iri());
    if (auto* into = c->graphRef()) op.target = {GraphTarget::Kind::Named, iri(into->iri())};
  } else if (auto* c = ctx->clear()) {
    op.kind = Kind::Clear;
    op.silent = c->SILENT() != nullptr;
    op.target = graphRefAll(c->graphRefAll());
  } else if (auto* c = ctx->drop()) {
    op.kind = Kind::Drop;
    op.silent = c->SILENT() != nullptr;
    op.target = graphRefAll(c->graphRefAll());
  } else if (auto* c = ctx->create()) {
    op.kind = Kind::Create;
    op.silent = c->SILENT() != nullptr;
    op.target = {GraphTarget::Kind::Named, iri(c->graphRef()->iri())};
  } else if (auto* c = ctx->add()) {
    transfer(c, op, Kind::Add, graph);
  } else if (auto* c = ctx->move()) {
    transfer(c, op, Kind::Move, graph);
  } else {
    transfer(ctx->copy(), op, Kind::Copy, graph);
  }
  return op;
}

void Walker::modify(P::ModifyContext* ctx, UpdateOperation& op) {
  op.kind = Kind::Modify;
  if (ctx->WITH()) op.with = iri(ctx->iri());
  if (auto* d = ctx->deleteClause()) {
    op.deleteQuads = quads(d->quadPattern()->quads());
    rejectBlankNodes(op.deleteQuads, "a DELETE template");
  }
  if (auto* i = ctx->insertClause()) op.insertQuads = quads(i->quadPattern()->quads());
  for (auto* u : ctx->usingClause()) (u->NAMED() ? op.usingNamedGraphs : op.usingGraphs).push_back(iri(u->iri()));
  std::vector<TriplePattern*> templates;
  for (auto* quads : {&op.deleteQuads, &op.insertQuads}) {
    for (Quad& q : *quads) templates.push_back(&q.triple);
  }
  op.where = translator_.bindTemplateTripleTerms(translator_.group(groupPattern(ctx->groupGraphPattern())), templates);
}

std::vector<Quad> Walker::quads(P::QuadsContext* ctx) {
  std::vector<Quad> out;
  auto add = [&](P::TriplesBlockContext* block, const Term& graph) {
    std::vector<ast::TripleItem> items;
    triplesBlock(block, items, true);
    for (auto& item : items) out.push_back({item.triple, graph});
  };
  for (auto* child : ctx->children) {
    if (auto* block = dynamic_cast<P::TriplesBlockContext*>(child)) {
      add(block, Term{});
    } else if (auto* named = dynamic_cast<P::QuadsNotTriplesContext*>(child); named && named->triplesBlock()) {
      add(named->triplesBlock(), varOrIri(named->varOrIri()));
    }
  }
  return out;
}

std::vector<Quad> Walker::groundQuads(P::QuadsContext* ctx, bool forDelete) {
  std::vector<Quad> out = quads(ctx);
  const char* form = forDelete ? "DELETE DATA" : "INSERT DATA";
  if (forDelete) rejectBlankNodes(out, form);
  for (const Quad& q : out) {
    // A triple term with blank nodes inside stands as a variable, and is data.
    const bool variable = hasVariable(q) && !(translator_.isGroundTripleTerm(q.triple.subject) &&
                                              translator_.isGroundTripleTerm(q.triple.object) &&
                                              q.triple.predicate.kind != Term::Kind::Variable &&
                                              q.graph.kind != Term::Kind::Variable);
    if (variable) fail(q.triple.pos, std::string("variables are not allowed in ") + form);
  }
  return out;
}

void Walker::rejectBlankNodes(const std::vector<Quad>& quads, std::string_view where) const {
  for (const Quad& q : quads) {
    if (hasBlankNode(q) || translator_.holdsBlankNode(q.triple.subject) || translator_.holdsBlankNode(q.triple.object)) {
      fail(q.triple.pos, "blank nodes are not allowed in " + std::string(where));
    }
  }
}

// DELETE WHERE's template is also its pattern: the default graph's triples
// as one basic graph pattern, each named graph's in a GRAPH element.
OpPtr Walker::quadsAsPattern(const std::vector<Quad>& quads, Position pos) {
  ast::GroupPattern group;
  group.pos = pos;
  ast::Element inDefault;
  inDefault.pos = pos;
  for (const Quad& q : quads) {
    if (q.inDefaultGraph()) {
      inDefault.triples.push_back({q.triple, std::nullopt});
      continue;
    }
    ast::Element triples;
    triples.pos = q.triple.pos;
    triples.triples.push_back({q.triple, std::nullopt});
    ast::Element named;
    named.kind = ast::Element::Kind::Graph;
    named.pos = q.triple.pos;
    named.name = q.graph;
    named.groups.push_back(ast::GroupPattern{{std::move(triples)}, q.triple.pos});
    group.elements.push_back(std::move(named));
  }
  group.elements.insert(group.elements.begin(), std::move(inDefault));
  return translator_.group(group);
}

GraphTarget Walker::graphRefAll(P::GraphRefAllContext* ctx) {
  if (auto* ref = ctx->graphRef()) return {GraphTarget::Kind::Named, iri(ref->iri())};
  if (ctx->DEFAULT()) return {GraphTarget::Kind::Default, {}};
  if (ctx->NAMED()) return {GraphTarget::Kind::AllNamed, {}};
  return {GraphTarget::Kind::All, {}};
}

GraphTarget Walker::graphOrDefault(P::GraphOrDefaultContext* ctx) {
  if (ctx->DEFAULT()) return {GraphTarget::Kind::Default, {}};
  return {GraphTarget::Kind::Named, iri(ctx->iri())};
}

void Walker::fail(Position pos, std::string message) const { throw SyntaxError(text_, pos, std::move(message)); }

}  // namespace gsparql::sparql
