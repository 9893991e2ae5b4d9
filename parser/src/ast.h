#pragma once
// Syntax tree of group graph patterns: what the tree walker builds from the
// ANTLR parse tree and translate.cpp turns into algebra (section 18.2.2).
// Triples are already expanded (abbreviations, collections, and the path
// rewriting of 18.2.2.4); everything else keeps the shape of the text.
#include <vector>

#include "parser/algebra.h"

namespace gsparql::sparql::ast {

// One item of a triples block: a triple, or a path that stays a path.
struct TripleItem {
  TriplePattern triple;
  std::optional<Path> path;  // set: triple.predicate is unused
};

struct GroupPattern;

struct Element {
  enum class Kind { Triples, Group, Union, Optional, Minus, Graph, Service, Filter, Bind, Values, SubSelect };
  Kind kind = Kind::Triples;
  Position pos;
  std::vector<TripleItem> triples;   // Triples
  std::vector<GroupPattern> groups;  // Group, Optional, Minus, Graph, Service: 1; Union: >= 2
  Term name;                         // Graph, Service
  bool silent = false;               // Service
  Expr expr;                         // Filter, Bind
  std::string var;                   // Bind
  Table values;                      // Values
  OpPtr subSelect;                   // SubSelect, already translated
};

struct GroupPattern {
  std::vector<Element> elements;
  Position pos;
};

}  // namespace gsparql::sparql::ast

namespace gsparql::sparql::ast {

// The query-level parts that section 18.2.4-18.2.5 turn into operators
// above the WHERE pattern.
struct SelectItem {
  std::string var;
  std::optional<Expr> expr;  // (expr AS ?var)
  Position pos;
};

struct SolutionModifiers {
  bool isSelect = false;
  bool selectAll = false;  // SELECT *
  bool distinct = false, reduced = false;
  std::vector<SelectItem> items;
  bool hasGroupBy = false;
  std::vector<Binding> groupKeys;
  Position groupPos;
  std::vector<Expr> having;
  std::vector<OrderKey> order;
  std::optional<Table> values;  // trailing VALUES
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> limit;
  Position pos;
};

}  // namespace gsparql::sparql::ast
