#include "parser/src/bgp_select_reader.h"

#include <charconv>
#include <map>

#include "SparqlLexer.h"
#include "parser/src/ast.h"
#include "parser/src/lexical.h"
#include "parser/src/term_tokens.h"
#include "parser/src/token_text.h"
#include "parser/src/tokenizer.h"
#include "parser/src/translate.h"
#include "rdf/iri.h"
#include "rdf/term.h"

namespace gsparql::sparql {
namespace {

using L = gsparql_antlr::SparqlLexer;

// The grammar's literal tokens the reader meets.
struct Punctuation {
  size_t open = literalTokenType("{"), close = literalTokenType("}"), dot = literalTokenType(".");
  size_t semicolon = literalTokenType(";"), comma = literalTokenType(","), star = literalTokenType("*");
  size_t datatype = literalTokenType("^^"), a = literalTokenType("a");
};

const Punctuation& punctuation() {
  static const Punctuation p;
  return p;
}

// Thrown where the text leaves what the reader reads: the grammar takes it.
struct NotRead {};

bool isString(size_t type) {
  return type == L::STRING_LITERAL1 || type == L::STRING_LITERAL2 || type == L::STRING_LITERAL_LONG1 ||
         type == L::STRING_LITERAL_LONG2;
}

bool isNumber(size_t type) {
  switch (type) {
    case L::INTEGER: case L::DECIMAL: case L::DOUBLE: case L::INTEGER_POSITIVE: case L::DECIMAL_POSITIVE:
    case L::DOUBLE_POSITIVE: case L::INTEGER_NEGATIVE: case L::DECIMAL_NEGATIVE: case L::DOUBLE_NEGATIVE:
      return true;
    default:
      return false;
  }
}

bool isVariable(size_t type) { return type == L::VAR1 || type == L::VAR2; }

class Reader {
 public:
  Reader(std::string_view text, const std::vector<antlr4::Token*>& tokens, FreshNames& fresh, std::string base)
      : text_(text), textOf_(text), tokens_(tokens), fresh_(fresh), base_(std::move(base)) {}

  Query query() {
    prologue();
    Query q;
    q.form = Query::Form::Select;
    q.pos = position();
    ast::SolutionModifiers m;
    m.isSelect = true;
    m.pos = q.pos;
    expect(L::SELECT);
    m.distinct = accept(L::DISTINCT);
    m.reduced = !m.distinct && accept(L::REDUCED);
    m.selectAll = accept(punctuation().star);
    while (!m.selectAll && isVariable(type())) {
      const Position pos = position();
      m.items.push_back({variable().value, std::nullopt, pos});
    }
    if (!m.selectAll && m.items.empty()) throw NotRead{};
    accept(L::WHERE);
    const ast::GroupPattern where = group();
    limitOffset(m);
    expect(antlr4::Token::EOF);
    Translator translator(text_, fresh_);
    q.pattern = translator.modifiers(translator.group(where), m);
    q.prefixes = {prefixes_.begin(), prefixes_.end()};
    q.base = base_;
    return q;
  }

 private:
  size_t type() const { return tokens_[next_]->getType(); }
  Position position() const {
    const antlr4::Token* t = tokens_[next_];
    return {static_cast<uint32_t>(t->getLine()), static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
  }
  // The next token's text; past it.
  std::string take() {
    if (type() == antlr4::Token::EOF) throw NotRead{};
    return textOf_(tokens_[next_++]);
  }
  bool accept(size_t tokenType) {
    if (type() != tokenType) return false;
    ++next_;
    return true;
  }
  void expect(size_t tokenType) {
    if (!accept(tokenType)) throw NotRead{};
  }

  void prologue() {
    for (;;) {
      if (accept(L::BASE)) {
        if (type() != L::IRIREF) throw NotRead{};
        base_ = rdf::resolveIri(base_, lexical::decodeIriRef(take()));
      } else if (accept(L::PREFIX)) {
        if (type() != L::PNAME_NS) throw NotRead{};
        std::string ns = take();
        ns.pop_back();  // the ':'
        if (type() != L::IRIREF) throw NotRead{};
        prefixes_[ns] = rdf::resolveIri(base_, lexical::decodeIriRef(take()));
      } else {
        return;
      }
    }
  }

  // { triples }: one block of triples, or none.
  ast::GroupPattern group() {
    ast::GroupPattern g;
    g.pos = position();
    expect(punctuation().open);
    if (!accept(punctuation().close)) {
      ast::Element block;
      block.kind = ast::Element::Kind::Triples;
      block.pos = position();
      do {
        sameSubject(block.triples);
      } while (accept(punctuation().dot) && type() != punctuation().close);
      g.elements.push_back(std::move(block));
      expect(punctuation().close);
    }
    return g;
  }

  // A subject and its verbs and objects; each triple at the subject's position.
  void sameSubject(std::vector<ast::TripleItem>& out) {
    const Position pos = position();
    const Term subject = term();
    for (;;) {
      const Term predicate = verb();
      do {
        out.push_back({TriplePattern{subject, predicate, term(), pos}, std::nullopt});
      } while (accept(punctuation().comma));
      if (!accept(punctuation().semicolon)) return;
      while (accept(punctuation().semicolon)) {}
      if (!startsVerb()) return;
    }
  }

  bool startsVerb() const {
    const size_t t = type();
    return isVariable(t) || t == L::IRIREF || t == L::PNAME_LN || t == L::PNAME_NS || t == punctuation().a;
  }

  Term verb() {
    if (accept(punctuation().a)) return Term::constant(rdf::iriTerm(rdf::kRdfType));
    if (isVariable(type())) return variable();
    return Term::constant(iri());
  }

  Term variable() {
    if (!isVariable(type())) throw NotRead{};
    return Term::variable(take().substr(1));
  }

  std::string iri() {
    const size_t t = type();
    if (t == L::IRIREF) return rdf::iriTerm(rdf::resolveIri(base_, lexical::decodeIriRef(take())));
    if (t != L::PNAME_LN && t != L::PNAME_NS) throw NotRead{};
    auto term = prefixedNameTerm(prefixes_, take());
    if (!term) throw NotRead{};
    return *std::move(term);
  }

  // A subject or object: a variable, IRI, blank node label or literal.
  Term term() {
    const size_t t = type();
    if (isVariable(t)) return variable();
    if (t == L::BLANK_NODE_LABEL) return Term::blank(take().substr(2));
    if (t == L::TRUE || t == L::FALSE) {
      ++next_;
      return Term::constant(booleanTerm(t == L::TRUE));
    }
    if (isNumber(t)) return Term::constant(numericTerm(t, take()));
    if (isString(t)) return Term::constant(literal());
    return Term::constant(iri());
  }

  std::string literal() {
    const std::string lexicalForm = lexical::decodeString(take());
    if (type() == L::LANGTAG) return rdf::literalTerm(lexicalForm, take().substr(1));
    if (!accept(punctuation().datatype)) return rdf::literalTerm(lexicalForm);
    return typedLiteralTerm(lexicalForm, iri());
  }

  // LIMIT and OFFSET, at most one of each, in either order.
  void limitOffset(ast::SolutionModifiers& m) {
    bool limit = false, offset = false;
    for (;;) {
      if (!limit && accept(L::LIMIT)) {
        limit = true;
        m.limit = unsignedInteger();
      } else if (!offset && accept(L::OFFSET)) {
        offset = true;
        m.offset = unsignedInteger();
      } else {
        return;
      }
    }
  }

  uint64_t unsignedInteger() {
    if (type() != L::INTEGER) throw NotRead{};
    const std::string digits = take();
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc{}) throw NotRead{};
    return value;
  }

  std::string_view text_;
  TokenText textOf_;
  const std::vector<antlr4::Token*>& tokens_;
  size_t next_ = 0;
  FreshNames& fresh_;
  std::string base_;
  std::map<std::string, std::string> prefixes_;
};

}  // namespace

std::optional<Query> readBgpSelect(std::string_view text, const std::vector<antlr4::Token*>& tokens,
                                   FreshNames& fresh, const std::string& base) {
  try {
    return Reader(text, tokens, fresh, base).query();
  } catch (const NotRead&) {
    return std::nullopt;
  } catch (const std::exception&) {  // an invalid escape, IRI or name: the grammar's walker reports it
    return std::nullopt;
  }
}

}  // namespace gsparql::sparql
