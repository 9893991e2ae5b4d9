// The expression tree: compiling sparql::Expr into nodes with variable slots
// and strict functions resolved once, and evaluating them with SPARQL's
// error rules (section 17.2).
#include "engine/expr/expression.h"

#include <algorithm>
#include <forward_list>

#include "engine/expr/builtins.h"
#include "engine/expr/regex.h"
#include "engine/expr/value_set.h"
#include "engine/expr/values.h"

namespace gsparql::engine::expr {

namespace detail {

struct ExprNode {
  enum class Kind {
    Constant, Variable, Strict, Or, And, If, Coalesce, In, NotIn, Bound, Exists, NotExists, Regex, Replace, Error
  };
  Kind kind = Kind::Error;
  std::string constant;                   // Constant
  std::optional<size_t> slot;             // Variable (none: not among the solution's variables)
  const Builtin* builtin = nullptr;       // Strict
  std::vector<ExprNode> args;
  sparql::OpPtr pattern;                  // Exists, NotExists
  // Regex, Replace with a constant pattern and flags: compiled once; null
  // with `constantRegex` set means an invalid pattern.
  std::shared_ptr<const Regex> regex;
  bool constantRegex = false;
  std::shared_ptr<const ValueSet> inSet;  // In, NotIn with a list of constants
  // A memoized part: the one slot it reads (ExpressionMemo).
  std::optional<size_t> memoSlot;
};

}  // namespace detail

struct Expression::Node : detail::ExprNode {};

namespace {

using Node = detail::ExprNode;
using Kind = Node::Kind;

Result evaluateNode(const Node& node, const Solution& solution, Environment& environment);

struct SpecialForm {
  std::string_view name;
  Kind kind;
  size_t minArgs, maxArgs;
};

// Calls that see errors or evaluate their arguments lazily.
const SpecialForm kSpecialForms[] = {
    {"||", Kind::Or, 2, 2},           {"&&", Kind::And, 2, 2},      {"IF", Kind::If, 3, 3},
    {"COALESCE", Kind::Coalesce, 0, SIZE_MAX}, {"IN", Kind::In, 1, SIZE_MAX}, {"NOT IN", Kind::NotIn, 1, SIZE_MAX},
    {"BOUND", Kind::Bound, 1, 1},     {"REGEX", Kind::Regex, 2, 3}, {"REPLACE", Kind::Replace, 3, 4},
};

class Compiler {
 public:
  explicit Compiler(const std::vector<std::string>& variables) : variables_(variables) {}

  Node compile(const sparql::Expr& e);
  std::vector<size_t> slots() {
    std::sort(slots_.begin(), slots_.end());
    slots_.erase(std::unique(slots_.begin(), slots_.end()), slots_.end());
    return slots_;
  }

 private:
  std::optional<size_t> slotOf(const std::string& name) {
    auto it = std::find(variables_.begin(), variables_.end(), name);
    if (it == variables_.end()) return std::nullopt;
    size_t slot = static_cast<size_t>(it - variables_.begin());
    slots_.push_back(slot);
    return slot;
  }
  // As compile(e), a variable not counted as read.
  Node compileUnread(const sparql::Expr& e) {
    const size_t read = slots_.size();
    Node node = compile(e);
    if (e.kind == sparql::Expr::Kind::Term) slots_.resize(read);
    return node;
  }
  Node term(const sparql::Term& t);
  Node call(const sparql::Expr& e, std::string_view name);
  static void foldConstant(Node& node);
  static void compileInSet(Node& node);
  void compileRegex(Node& node, size_t flagsArg);
  void readPattern(const sparql::Op& op);
  void readExpr(const sparql::Expr& e);

  const std::vector<std::string>& variables_;
  std::vector<size_t> slots_;
};

Node Compiler::term(const sparql::Term& t) {
  Node node;
  if (t.kind == sparql::Term::Kind::Constant) {
    node.kind = Kind::Constant;
    node.constant = t.value;
  } else if (t.kind == sparql::Term::Kind::Variable) {
    node.kind = Kind::Variable;
    node.slot = slotOf(t.value);
  }
  return node;
}

Node Compiler::call(const sparql::Expr& e, std::string_view name) {
  Node node;
  // BOUND(?v) tests ?v without reading its term: not a slot read.
  const bool testsBound = name == "BOUND";
  for (const sparql::Expr& a : e.args) node.args.push_back(testsBound ? compileUnread(a) : compile(a));
  size_t n = node.args.size();
  for (const SpecialForm& form : kSpecialForms) {
    if (form.name != name) continue;
    if (n >= form.minArgs && n <= form.maxArgs) node.kind = form.kind;
    if (node.kind == Kind::Regex) compileRegex(node, 2);
    if (node.kind == Kind::Replace) compileRegex(node, 3);
    if (node.kind == Kind::In || node.kind == Kind::NotIn) compileInSet(node);
    return node;
  }
  const Builtin* b = findBuiltin(name);
  if (b && n >= b->minArgs && n <= b->maxArgs) {
    node.kind = Kind::Strict;
    node.builtin = b;
    foldConstant(node);
  }
  return node;  // unknown functions are errors (section 17.6)
}

bool isConstant(const Node& node) { return node.kind == Kind::Constant || node.kind == Kind::Error; }

// A pure function of constants (1+1+...+1, a cast of a literal) is computed
// here once instead of on every row; an error becomes an Error node. Never
// inlined: its locals (an Environment) would enlarge the frame of call(),
// which recurses as deep as the expression nests (1,999 levels overflowed
// the stack under AddressSanitizer).
[[gnu::noinline]] void Compiler::foldConstant(Node& node) {
  if (!node.builtin->pure || !std::all_of(node.args.begin(), node.args.end(), isConstant)) return;
  struct NoSolution final : Solution {
    std::optional<std::string_view> term(size_t) const override { return std::nullopt; }
  } noSolution;
  Environment noEnvironment;
  Result value = evaluateNode(node, noSolution, noEnvironment);
  node = Node{};
  if (value) {
    node.kind = Kind::Constant;
    node.constant = std::move(*value);
  }
}

// x IN (constants): one hash lookup per row instead of a scan of the list.
void Compiler::compileInSet(Node& node) {
  if (!std::all_of(node.args.begin() + 1, node.args.end(), isConstant)) return;
  std::vector<std::optional<std::string>> constants;
  for (auto a = node.args.begin() + 1; a != node.args.end(); ++a) {
    constants.push_back(a->kind == Kind::Constant ? std::optional(a->constant) : std::nullopt);
  }
  node.inSet = std::make_shared<const ValueSet>(constants);
}

// Parses the pattern once when it and the flags are constants.
void Compiler::compileRegex(Node& node, size_t flagsArg) {
  const Node& pattern = node.args[1];
  const Node* flags = node.args.size() > flagsArg ? &node.args[flagsArg] : nullptr;
  if (pattern.kind != Kind::Constant || (flags && flags->kind != Kind::Constant)) return;
  node.constantRegex = true;
  TermValue p = parseTerm(pattern.constant), f = flags ? parseTerm(flags->constant) : TermValue{};
  if (p.isSimple() && f.isSimple()) node.regex = Regex::compile(p.value, f.value);
}

// EXISTS reads the variables its pattern mentions (substitution semantics).
void Compiler::readPattern(const sparql::Op& op) {
  for (const std::string& v : sparql::inScopeVariables(op)) slotOf(v);
  for (const sparql::Expr& e : op.exprs) readExpr(e);
  for (const sparql::Binding& b : op.bindings) readExpr(b.expr);
  for (const sparql::OrderKey& k : op.order) readExpr(k.expr);
  for (const sparql::OpPtr& child : op.children) readPattern(*child);
}

void Compiler::readExpr(const sparql::Expr& e) {
  if (e.kind == sparql::Expr::Kind::Term && e.term.kind == sparql::Term::Kind::Variable) slotOf(e.term.value);
  if (e.pattern) readPattern(*e.pattern);
  for (const sparql::Expr& a : e.args) readExpr(a);
}

Node Compiler::compile(const sparql::Expr& e) {
  switch (e.kind) {
    case sparql::Expr::Kind::Term: return term(e.term);
    case sparql::Expr::Kind::Call:
    case sparql::Expr::Kind::Function: return call(e, e.name);
    case sparql::Expr::Kind::Exists:
    case sparql::Expr::Kind::NotExists: {
      Node node;
      node.kind = e.kind == sparql::Expr::Kind::Exists ? Kind::Exists : Kind::NotExists;
      node.pattern = e.pattern;
      readPattern(*e.pattern);
      return node;
    }
    case sparql::Expr::Kind::Aggregate: break;  // replaced by variables before evaluation
  }
  return Node{};
}

// What a part of an expression reads of the solution, for memoizing it.
struct PartReads {
  std::optional<size_t> slot;  // the slot it reads, if one
  bool several = false;        // it reads more than one slot
  bool impure = false;         // it calls EXISTS or an impure function
  bool memoizable() const { return slot && !several && !impure; }
  void add(const PartReads& part) {
    several = several || part.several || (slot && part.slot && *slot != *part.slot);
    if (!slot) slot = part.slot;
    impure = impure || part.impure;
  }
};

// Memoizing a variable, a constant, BOUND or a test of a term's kind costs
// more than it saves.
bool worthMemoizing(const Node& node) {
  if (node.kind == Kind::Strict && node.builtin->readsFirstCharacters) return false;
  return node.kind != Kind::Variable && node.kind != Kind::Constant && node.kind != Kind::Bound &&
         node.kind != Kind::Error;
}

// Marks the largest memoizable parts below `node` (memoSlot) and returns
// what `node` reads: a memoizable node leaves its marking to its parent,
// which marks it unless it is memoizable too.
PartReads markMemoizedParts(Node& node) {
  PartReads reads;
  reads.slot = node.kind == Kind::Variable ? node.slot : std::nullopt;
  reads.impure = node.kind == Kind::Exists || node.kind == Kind::NotExists || (node.builtin && !node.builtin->pure);
  std::vector<PartReads> args;
  for (Node& a : node.args) reads.add(args.emplace_back(markMemoizedParts(a)));
  if (reads.memoizable()) return reads;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].memoizable() && worthMemoizing(node.args[i])) node.args[i].memoSlot = args[i].slot;
  }
  return reads;
}

void markMemoizedRoot(Node& root) {
  const PartReads reads = markMemoizedParts(root);
  if (reads.memoizable() && worthMemoizing(root)) root.memoSlot = reads.slot;
}

// Whether the value of `node` is a boolean that Evaluator::decide gives
// without writing its term.
bool decidable(const Node& node) {
  switch (node.kind) {
    case Kind::Or: case Kind::And: case Kind::In: case Kind::NotIn: case Kind::Bound:
    case Kind::Exists: case Kind::NotExists: case Kind::Regex: return true;
    case Kind::Strict: return node.builtin->test != nullptr;
    default: return false;
  }
}

// A ! whose operand's effective boolean value is negated in place.
bool negates(const Node& node) { return node.kind == Kind::Strict && node.builtin->negates && !node.memoSlot; }

Result booleanResult(std::optional<bool> value) {
  if (!value) return std::nullopt;
  return booleanTerm(*value);
}

class Evaluator {
 public:
  Evaluator(const Solution& solution, Environment& environment)
      : solution_(solution), context_{environment, {}} {}
  Result eval(const Node& n);
  std::optional<bool> ebv(const Node& n);

 private:
  const Result& value(const Node& n, Result& scratch);
  Result compute(const Node& n);
  Result strict(const Node& n);
  Result call(const Node& n, Result first);
  struct Arguments;
  bool arguments(const Node& n, Result* first, Arguments& arguments);
  const TermValue& partsOfVariable(size_t slot, std::string_view term);
  std::optional<bool> decide(const Node& n);
  std::optional<bool> logical(const Node& n);
  Result ifThenElse(const Node& n);
  Result coalesce(const Node& n);
  std::optional<bool> in(const Node& n);
  std::optional<bool> exists(const Node& n);
  std::optional<bool> matches(const Node& n);
  Result replace(const Node& n);
  std::optional<std::vector<TermValue>> regexArguments(const Node& n);

  const Solution& solution_;
  CallContext context_;
  // The parts of the variables' terms split so far on this solution: a term
  // that several functions read (LCASE(?t), STRBEFORE(?t, " ")) is split once.
  // (A list: made empty without allocating, as an Evaluator is per row, and
  // its elements stay put.)
  std::forward_list<std::pair<size_t, TermValue>> variableParts_;
};

// A strict call's arguments: the values computed (reserved, so that views of
// them stay put), their parts, and what the function sees.
struct Evaluator::Arguments {
  std::vector<Result> values;
  std::vector<TermValue> parts;
  std::vector<Arg> args;
};

// A chain of ! of any length is walked in a loop, negating as it goes; a
// boolean below it is decided, not written and read back.
std::optional<bool> Evaluator::ebv(const Node& n) {
  const Node* node = &n;
  bool negated = false;
  while (negates(*node)) {
    negated = !negated;
    node = &node->args[0];
  }
  std::optional<bool> decision;
  if (!node->memoSlot && decidable(*node)) {
    decision = decide(*node);
  } else {
    Result scratch;
    const Result& r = value(*node, scratch);
    if (r) decision = effectiveBooleanValue(*r);
  }
  if (!decision) return std::nullopt;
  return *decision != negated;
}

Result Evaluator::eval(const Node& n) {
  if (!n.memoSlot) return compute(n);
  Result scratch;
  const Result& r = value(n, scratch);
  return &r == &scratch ? std::move(scratch) : r;
}

// The value of `n`: remembered per key of its slot's term where `n` is a
// memoized part, else computed into `scratch`.
const Result& Evaluator::value(const Node& n, Result& scratch) {
  const std::optional<uint64_t> key = n.memoSlot ? solution_.key(*n.memoSlot) : std::nullopt;
  if (!key) return scratch = compute(n);
  ExpressionMemo::Part& part = context_.environment.memo.part(&n);
  if (const Result* known = part.find(*key)) return *known;
  scratch = compute(n);
  const Result* kept = part.remember(*key, scratch);
  return kept ? *kept : scratch;
}

// A strict call goes through strict(), which walks a chain of calls in a
// loop (its function writes the boolean); decide() is for ebv().
Result Evaluator::compute(const Node& n) {
  if (decidable(n) && n.kind != Kind::Strict) return booleanResult(decide(n));
  switch (n.kind) {
    case Kind::Constant: return n.constant;
    case Kind::Variable: {
      if (!n.slot) return std::nullopt;
      auto t = solution_.term(*n.slot);
      if (!t) return std::nullopt;
      return std::string(*t);
    }
    case Kind::Strict: return strict(n);
    case Kind::If: return ifThenElse(n);
    case Kind::Coalesce: return coalesce(n);
    case Kind::Replace: return replace(n);
    default: break;
  }
  return std::nullopt;
}

// The boolean value of a decidable node.
std::optional<bool> Evaluator::decide(const Node& n) {
  switch (n.kind) {
    case Kind::Or:
    case Kind::And: return logical(n);
    case Kind::In:
    case Kind::NotIn: return in(n);
    case Kind::Bound:  // a constant is what EXISTS substituted for a bound variable
      return n.args[0].kind == Kind::Constant ||
             (n.args[0].kind == Kind::Variable && n.args[0].slot && solution_.bound(*n.args[0].slot));
    case Kind::Exists:
    case Kind::NotExists: return exists(n);
    case Kind::Regex: return matches(n);
    default: break;
  }
  Arguments a;
  if (!arguments(n, nullptr, a)) return std::nullopt;
  return n.builtin->test(a.args, context_);
}

// A left-deep chain of strict calls (1+2+...+n: the parser's shape for
// chained operators) is evaluated bottom-up in a loop, not by recursion as
// deep as the chain; the chain ends above a memoized part.
Result Evaluator::strict(const Node& n) {
  std::vector<const Node*> chain{&n};
  auto continues = [](const Node& below) { return below.kind == Kind::Strict && !below.memoSlot; };
  while (!chain.back()->args.empty() && continues(chain.back()->args[0])) chain.push_back(&chain.back()->args[0]);
  const Node& bottom = *chain.back();
  Result value = call(bottom, bottom.args.empty() ? Result() : eval(bottom.args[0]));
  for (auto it = chain.rbegin() + 1; it != chain.rend() && value; ++it) value = call(**it, std::move(value));
  return value;
}

// The call of a strict node whose first argument (if any) evaluated to `first`.
Result Evaluator::call(const Node& n, Result first) {
  Arguments a;
  if (!arguments(n, n.args.empty() ? nullptr : &first, a)) return std::nullopt;
  return n.builtin->fn(a.args, context_);
}

// The arguments of a strict node for its function: a variable's term is
// viewed where the solution holds it and split once per solution, a computed
// value kept and split. `first`: the first argument's value where the caller
// computed it (a chain of calls), else null. False when an argument is an error.
bool Evaluator::arguments(const Node& n, Result* first, Arguments& arguments) {
  static const TermValue kUnsplit;
  arguments.values.reserve(n.args.size());
  arguments.parts.reserve(n.args.size());
  arguments.args.reserve(n.args.size());
  const bool split = !n.builtin->readsTextOnly;
  for (size_t i = 0; i < n.args.size(); ++i) {
    const Node& a = n.args[i];
    if (a.kind == Kind::Variable && !a.memoSlot && !(i == 0 && first)) {
      const std::optional<std::string_view> text = a.slot ? solution_.term(*a.slot) : std::nullopt;
      if (!text) return false;
      arguments.args.push_back({*text, split ? partsOfVariable(*a.slot, *text) : kUnsplit});
      continue;
    }
    arguments.values.push_back(i == 0 && first ? std::move(*first) : eval(a));
    if (!arguments.values.back()) return false;
    const std::string_view text = *arguments.values.back();
    arguments.args.push_back({text, split ? arguments.parts.emplace_back(parseTerm(text)) : kUnsplit});
  }
  return true;
}

const TermValue& Evaluator::partsOfVariable(size_t slot, std::string_view term) {
  for (const auto& [at, parts] : variableParts_) {
    if (at == slot) return parts;
  }
  return variableParts_.emplace_front(slot, parseTerm(term)).second;
}

// Section 17.2: an error on one side is overruled by true (||) or false (&&)
// on the other.
std::optional<bool> Evaluator::logical(const Node& n) {
  bool decisive = n.kind == Kind::Or;
  std::optional<bool> left = ebv(n.args[0]);
  if (left == decisive) return decisive;
  std::optional<bool> right = ebv(n.args[1]);
  if (right == decisive) return decisive;
  if (!left || !right) return std::nullopt;
  return !decisive;
}

Result Evaluator::ifThenElse(const Node& n) {
  std::optional<bool> condition = ebv(n.args[0]);
  if (!condition) return std::nullopt;
  return eval(n.args[*condition ? 1 : 2]);
}

Result Evaluator::coalesce(const Node& n) {
  for (const Node& a : n.args) {
    if (Result r = eval(a)) return r;
  }
  return std::nullopt;
}

// Section 17.4.1.9: a match decides; otherwise any error makes an error.
std::optional<bool> Evaluator::in(const Node& n) {
  Result left = eval(n.args[0]);
  if (!left) return std::nullopt;
  bool negated = n.kind == Kind::NotIn, error = false;
  if (n.inSet) {
    const std::optional<bool> found = n.inSet->contains(*left);
    if (!found) return std::nullopt;
    return *found != negated;
  }
  for (size_t i = 1; i < n.args.size(); ++i) {
    Result right = eval(n.args[i]);
    std::optional<bool> equal = right ? valuesEqual(*left, *right) : std::nullopt;
    if (equal == true) return !negated;
    error = error || !equal;
  }
  if (error) return std::nullopt;
  return negated;
}

std::optional<bool> Evaluator::exists(const Node& n) {
  if (!context_.environment.exists) return std::nullopt;
  bool found = context_.environment.exists(*n.pattern, solution_);
  return found == (n.kind == Kind::Exists);
}

// The parts of REGEX's and REPLACE's arguments (text, pattern[, replacement][,
// flags]); nullopt on an error or an argument of the wrong kind.
std::optional<std::vector<TermValue>> Evaluator::regexArguments(const Node& n) {
  std::vector<TermValue> args;
  for (const Node& a : n.args) {
    Result r = eval(a);
    if (!r) return std::nullopt;
    args.push_back(parseTerm(*r));
  }
  if (!args[0].isStringLiteral()) return std::nullopt;
  for (size_t i = 1; i < args.size(); ++i) {
    if (!args[i].isSimple()) return std::nullopt;
  }
  return args;
}

// The pattern: compiled once where it and the flags are constants.
std::shared_ptr<const Regex> patternOf(const Node& n, const std::vector<TermValue>& args, size_t flagsArg) {
  if (n.constantRegex) return n.regex;
  return Regex::compile(args[1].value, args.size() > flagsArg ? args[flagsArg].value : "");
}

// REGEX(text, pattern[, flags]).
std::optional<bool> Evaluator::matches(const Node& n) {
  const auto args = regexArguments(n);
  if (!args) return std::nullopt;
  const std::shared_ptr<const Regex> pattern = patternOf(n, *args, 2);
  if (!pattern) return std::nullopt;
  return pattern->matches((*args)[0].value);
}

// REPLACE(text, pattern, replacement[, flags]).
Result Evaluator::replace(const Node& n) {
  const auto args = regexArguments(n);
  if (!args) return std::nullopt;
  const std::shared_ptr<const Regex> pattern = patternOf(n, *args, 3);
  if (!pattern) return std::nullopt;
  auto out = pattern->replace((*args)[0].value, (*args)[2].value);
  if (!out) return std::nullopt;
  return stringTerm(*out, (*args)[0].language);
}

Result evaluateNode(const Node& node, const Solution& solution, Environment& environment) {
  return Evaluator(solution, environment).eval(node);
}

size_t nodeCount(const Node& node) {
  size_t count = 1;
  for (const Node& a : node.args) count += nodeCount(a);
  return count;
}

bool callsBackIntoQuery(const Node& node) {
  if (node.kind == Kind::Exists || node.kind == Kind::NotExists) return true;
  if (node.builtin != nullptr && node.builtin->name == "BNODE") return true;
  return std::any_of(node.args.begin(), node.args.end(), callsBackIntoQuery);
}

}  // namespace

Expression::Expression(const sparql::Expr& expr, const std::vector<std::string>& variables, KeptBy keptBy) {
  Compiler compiler(variables);
  root_ = std::make_unique<Expression::Node>(Expression::Node{compiler.compile(expr)});
  markMemoizedRoot(*root_);
  keySlot_ = root_->memoSlot;
  if (keptBy == KeptBy::Caller) root_->memoSlot.reset();
  slots_ = compiler.slots();
  cost_ = nodeCount(*root_);
  concurrent_ = !callsBackIntoQuery(*root_);
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

Result Expression::evaluate(const Solution& solution, Environment& environment) const {
  return evaluateNode(*root_, solution, environment);
}

bool Expression::holds(const Solution& solution, Environment& environment) const {
  return Evaluator(solution, environment).ebv(*root_).value_or(false);
}

const std::vector<size_t>& Expression::slotsRead() const { return slots_; }

std::optional<size_t> Expression::slotOfValue(const Solution& solution) const {
  if (root_->kind == Kind::Variable) return root_->slot;
  if (root_->kind != Kind::Coalesce) return std::nullopt;
  for (const detail::ExprNode& arg : root_->args) {
    if (arg.kind != Kind::Variable || !arg.slot) return std::nullopt;  // computed, constant or unbound: evaluate
    if (solution.bound(*arg.slot)) return arg.slot;
  }
  return std::nullopt;
}

}  // namespace gsparql::engine::expr
