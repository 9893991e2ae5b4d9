#include "engine/service/remote_query.h"

#include "parser/print.h"

namespace gsparql::engine::service {

std::string remoteQueryText(const sparql::OpPtr& pattern, const sparql::Table& bindings) {
  sparql::OpPtr where = pattern;
  if (!bindings.vars.empty()) {
    auto values = std::make_shared<sparql::Op>();
    values->kind = sparql::Op::Kind::Values;
    values->table = bindings;
    auto join = std::make_shared<sparql::Op>();
    join->kind = sparql::Op::Kind::Join;
    join->children = {pattern, values};
    where = join;
  }
  auto selectAll = std::make_shared<sparql::Op>();  // a projection of no variables prints as SELECT *
  selectAll->kind = sparql::Op::Kind::Project;
  selectAll->children = {where};
  sparql::Query query;
  query.pattern = selectAll;
  return sparql::toSparql(query);
}

}  // namespace gsparql::engine::service
