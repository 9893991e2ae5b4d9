#include "engine/logical/optional_left_bgp.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/logical/logical_plan.h"

namespace gsparql::engine {
namespace {

using sparql::Op;
using sparql::OpPtr;

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The BGP under a chain of OPTIONALs' left sides from `op`, if there is one.
const Op* baseBgp(const Op& op) {
  const Op* node = &op;
  while (node->kind == Op::Kind::LeftJoin) node = node->children[0].get();
  return node->kind == Op::Kind::Bgp ? node : nullptr;
}

// Whether `bgp` may join `base` below every OPTIONAL of `chain`: all that
// an OPTIONAL's pattern or condition shares with it is in `base`, and it
// shares no blank node label with `base` (each BGP's own).
bool movesBelow(const Op& chain, const Op& base, const Op& bgp) {
  const std::vector<std::string> joined = patternVariables(bgp), inBase = patternVariables(base);
  for (const std::string& v : joined) {
    if (v.starts_with("_:") && contains(inBase, v)) return false;
  }
  for (const Op* node = &chain; node->kind == Op::Kind::LeftJoin; node = node->children[0].get()) {
    std::vector<std::string> read = patternVariables(*node->children[1]);
    for (const sparql::Expr& e : node->exprs) expressionVariables(e, read);
    for (const std::string& v : read) {
      if (contains(joined, v) && !contains(inBase, v)) return false;
    }
  }
  return true;
}

// `chain` with `base` in place of the BGP under its OPTIONALs.
OpPtr withBase(const Op& chain, OpPtr base) {
  if (chain.kind != Op::Kind::LeftJoin) return base;
  auto copy = std::make_shared<Op>(chain);
  copy->children[0] = withBase(*chain.children[0], std::move(base));
  return copy;
}

void collectJoinOperands(const OpPtr& op, std::vector<OpPtr>& operands) {
  if (op->kind != Op::Kind::Join) return operands.push_back(op);
  for (const OpPtr& child : op->children) collectJoinOperands(child, operands);
}

// Moves BGP `operands[i]` into the first OPTIONAL chain among `operands`
// it may join below; whether it did.
bool moveIntoOptional(std::vector<OpPtr>& operands, size_t i) {
  const Op& bgp = *operands[i];
  for (OpPtr& chain : operands) {
    const Op* base = chain->kind == Op::Kind::LeftJoin ? baseBgp(*chain) : nullptr;
    if (base == nullptr || !movesBelow(*chain, *base, bgp)) continue;
    std::vector<sparql::TriplePattern> triples = base->triples;
    triples.insert(triples.end(), bgp.triples.begin(), bgp.triples.end());
    chain = withBase(*chain, bgpOf(std::move(triples), *base));
    operands.erase(operands.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }
  return false;
}

OpPtr rewriteJoin(const OpPtr& join) {
  std::vector<OpPtr> operands;
  collectJoinOperands(join, operands);
  bool changed = false;
  for (OpPtr& operand : operands) {
    OpPtr rewritten = moveBgpsIntoOptionalLeft(operand);
    changed = changed || rewritten != operand;
    operand = std::move(rewritten);
  }
  for (size_t i = 0; i < operands.size();) {
    const bool bgp = operands[i]->kind == Op::Kind::Bgp && !operands[i]->triples.empty();
    if (bgp && moveIntoOptional(operands, i)) {
      changed = true;
    } else {
      ++i;
    }
  }
  if (!changed) return join;
  OpPtr result = operands[0];
  for (size_t i = 1; i < operands.size(); ++i) {
    auto next = std::make_shared<Op>();
    next->kind = Op::Kind::Join;
    next->pos = join->pos;
    next->children = {result, operands[i]};
    result = std::move(next);
  }
  return result;
}

}  // namespace

OpPtr moveBgpsIntoOptionalLeft(const OpPtr& op) {
  if (op->kind == Op::Kind::Join) return rewriteJoin(op);
  std::shared_ptr<Op> copy;
  for (size_t c = 0; c < op->children.size(); ++c) {
    OpPtr rewritten = moveBgpsIntoOptionalLeft(op->children[c]);
    if (rewritten == op->children[c]) continue;
    if (!copy) copy = std::make_shared<Op>(*op);
    copy->children[c] = std::move(rewritten);
  }
  return copy ? copy : op;
}

}  // namespace gsparql::engine
