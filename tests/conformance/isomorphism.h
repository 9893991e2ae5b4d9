#pragma once
// Whether two RDF datasets are equal up to a renaming of blank nodes (the
// W3C syntax suites' evaluation tests): the statements without blank nodes
// must be equal, and those with them are matched one by one by a
// depth-first search over consistent renamings. Shared by the RDF and
// JSON-LD conformance runners.
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gsparql::conformance {

using Quad = std::array<std::string, 4>;  // s p o g (g empty: the default graph)

// "s p o g ."
std::string describe(const Quad& q);

// A term as the matcher reads it: itself, or a triple term opened into "<<(",
// its three parts (opened in turn) and ")>>", so that blank nodes inside
// triple terms are renamed like the others.
void appendAtoms(std::vector<std::string>& atoms, std::string_view term);

// nullopt when `actual` is isomorphic to `expected`; else the first difference found.
std::optional<std::string> datasetDifference(const std::vector<Quad>& expected, const std::vector<Quad>& actual);

}  // namespace gsparql::conformance
