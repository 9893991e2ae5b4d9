// libFuzzer target: parseQuery and parseUpdate must either return or throw
// SyntaxError, an accepted query must survive the pretty-printer round trip,
// and where the BGP reader reads a text, its Query must be the grammar's.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parser/parse.h"
#include "parser/fuzz/query_description.h"
#include "parser/print.h"
#include "parser/src/parse_paths.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gsparql::sparql;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    parseUpdate(text);
  } catch (const SyntaxError&) {
  }
  Query q;
  try {
    q = parseQuery(text);
  } catch (const SyntaxError&) {
    return 0;
  }
  if (auto read = readQueryDirectly(text)) {
    if (fuzz::describedQuery(*read) != fuzz::describedQuery(parseQueryWithGrammar(text))) std::abort();
  }
  std::string printed = toSparql(q);
  Query again = parseQuery(printed);  // a throw here is a printer bug: let it crash
  if (algebraToString(again, {false}) != algebraToString(q, {false})) std::abort();
  return 0;
}
