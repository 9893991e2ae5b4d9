#pragma once
// A property path pattern (section 18.4) that is not a plain predicate:
// the (subject, object) pairs of the path, restricted by constant ends.
#include <memory>

#include "engine/physical/operator.h"
#include "parser/algebra.h"
#include "storage/named_graphs.h"

namespace gsparql::engine {

class PathScan final : public Operator {
 public:
  // Over the merge of `graph`'s graphs of the store (storage/named_graphs.h).
  PathScan(sparql::Term subject, sparql::Path path, sparql::Term object, std::string text, double rows,
           GraphMerge graph);
  std::string describe() const override { return "PathScan " + text_; }
  std::vector<const Operator*> children() const override { return {}; }

  // The variable a path end binds ("_:b" for a blank node), if any.
  static std::optional<std::string> variableOf(const sparql::Term& end);

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext&) override { return cursor_.next(); }

  sparql::Term subject_, object_;
  sparql::Path path_;
  std::string text_;
  GraphMerge graph_;
  BatchCursor cursor_;
};

}  // namespace gsparql::engine
