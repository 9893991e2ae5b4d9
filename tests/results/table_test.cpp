// Table layout, expected outputs written by hand.
#include <doctest/doctest.h>

#include <sstream>

#include "engine/results/writers.h"
#include "golden.h"

using namespace gsparql::results;
using namespace gsparql::results::test;

namespace {

std::string table(const Solutions& s, TableOptions options = {}) {
  std::ostringstream out;
  auto w = makeTableWriter(out, options);
  w->begin(s.variables);
  std::vector<std::optional<std::string_view>> terms;
  for (const Row& row : s.rows) {
    terms.assign(row.begin(), row.end());
    w->row(terms);
  }
  w->end();
  return out.str();
}

}  // namespace

TEST_CASE("table: widths from content, unbound cells blank, row count") {
  Solutions s{{"s", "value"},
              {{std::string("<http://ex/a>"), std::string("\"42\"^^<http://www.w3.org/2001/XMLSchema#integer>")},
               {std::string("_:b"), std::nullopt}}};
  CHECK(table(s) ==
        "┌───────────────┬────────┐\n"
        "│ ?s            │ ?value │\n"
        "├───────────────┼────────┤\n"
        "│ <http://ex/a> │ 42     │\n"
        "│ _:b           │        │\n"
        "└───────────────┴────────┘\n"
        "2 rows\n");
}

TEST_CASE("table: no rows, one row, no variables") {
  CHECK(table(Solutions{{"x"}, {}}) ==
        "┌────┐\n"
        "│ ?x │\n"
        "├────┤\n"
        "└────┘\n"
        "0 rows\n");
  CHECK(table(Solutions{{"x"}, {{std::string("\"hi\"@en")}}}) ==
        "┌─────────┐\n"
        "│ ?x      │\n"
        "├─────────┤\n"
        "│ \"hi\"@en │\n"
        "└─────────┘\n"
        "1 row\n");
  CHECK(table(Solutions{{}, {{}}}) == "1 row\n");
}

TEST_CASE("table: long cells are cut with an ellipsis, widths count characters not bytes") {
  TableOptions narrow;
  narrow.maxWidth = 8;
  Solutions s{{"v"}, {{std::string("\"caf\xC3\xA9\"")}, {std::string("\"abcdefghijkl\"")}}};
  CHECK(table(s, narrow) ==
        "┌──────────┐\n"
        "│ ?v       │\n"
        "├──────────┤\n"
        "│ \"café\"   │\n"
        "│ \"abcdef… │\n"
        "└──────────┘\n"
        "2 rows\n");
  CHECK(displayWidth("caf\xC3\xA9") == 4);
  CHECK(displayWidth("\xF0\x9F\x98\x80") == 1);
}

TEST_CASE("table: rows after the sizing batch stream with the batch's widths") {
  TableOptions small;
  small.sizingRows = 2;
  Solutions s{{"v"},
              {{std::string("\"a\"")}, {std::string("\"bb\"")}, {std::string("\"a much longer value\"")}, {}}};
  CHECK(table(s, small) ==
        "┌──────┐\n"
        "│ ?v   │\n"
        "├──────┤\n"
        "│ \"a\"  │\n"
        "│ \"bb\" │\n"
        "│ \"a … │\n"
        "│      │\n"
        "└──────┘\n"
        "4 rows\n");
}

TEST_CASE("table: control characters cannot reach the terminal") {
  // ESC (U+001B), a C1 control (U+009B) and a tab in the data.
  Solutions s{{"v"}, {{std::string("\"\x1B[31mred\xC2\x9B\tx\"")}}};
  std::string out = table(s);
  CHECK(out.find('\x1B') == std::string::npos);
  CHECK(out.find("\xC2\x9B") == std::string::npos);
  CHECK(out.find("\"\\u001B[31mred\\u009B\\tx\"") != std::string::npos);
}

TEST_CASE("table: ASK") {
  std::ostringstream out;
  makeResultWriter(Format::Table, out)->boolean(true);
  CHECK(out.str() == "true\n");
}

TEST_CASE("formats by name") {
  CHECK(formatFromName("table") == Format::Table);
  CHECK(formatFromName("tsv") == Format::Tsv);
  CHECK(formatFromName("csv") == Format::Csv);
  CHECK(formatFromName("json") == Format::Json);
  CHECK(formatFromName("xml") == Format::Xml);
  CHECK_FALSE(formatFromName("TSV").has_value());
  CHECK_FALSE(formatFromName("").has_value());
  CHECK(formatName(Format::Json) == "json");
}
