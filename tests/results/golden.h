#pragma once
// Shared by the result-writer tests: the corpora under tests/results/data,
// turned into the rows the engine would hand to the writers, and helpers to
// compare writer output with the Jena 4.5 outputs stored next to them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/results/result_writer.h"
#include "support/json.h"

namespace gsparql::results::test {

using Row = std::vector<std::optional<std::string>>;

struct Solutions {
  std::vector<std::string> variables;
  std::vector<Row> rows;
};

std::string readFile(const std::string& relative);  // under tests/results/data

// The answer to `SELECT ?s ?o ?note` (or `SELECT ?s ?o` when `withNote` is
// false) over `<dir>/data.nt`, in ORDER BY ?s order: each subject's ex:p
// object and optional ex:note, as rdf/term.h terms (the data files are
// canonical N-Triples, which is that form; ^^xsd:string is dropped as the
// loader does).
Solutions corpusRows(const std::string& dir, bool withNote);

std::string render(Format format, const Solutions& solutions);
std::string renderAsk(Format format, bool value);

// Blank node labels are chosen by each engine (Jena writes _:B<hash> in TSV,
// b0, b1... elsewhere); results are equal up to a renaming. These rewrite the
// labels to _:b0, _:b1... in order of first appearance.
std::string renameBlankFields(std::string_view text, char separator);  // TSV, CSV
std::string renameXmlBnodes(std::string_view xml);

std::vector<std::string> splitLines(std::string_view text, std::string_view eol);
// CHECKs the two texts equal, line by line first so a failure names the line.
void checkSameLines(const std::string& actual, const std::string& expected);

// JSON results are compared as parsed trees (support/json.h), with bnode
// values renamed as above.
using gsparql::test::Json;
using gsparql::test::member;
using gsparql::test::parseJson;
void renameJsonBnodes(Json& results);
std::string compactJson(const Json& value);  // compact, for failure messages

}  // namespace gsparql::results::test
