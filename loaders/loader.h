#pragma once
// `gsparql load`: reads RDF inputs, encodes terms, de-duplicates triples and
// writes a new database generation (dictionary, adjacency, catalog), which
// becomes current only when everything is on disk. Loading into an existing
// database adds to it: its terms keep their ids and its triples are merged.
#include <filesystem>
#include <string>
#include <vector>

#include "gsparql/load.h"

namespace gsparql {

// Throws LoadError for bad input and StorageError for I/O trouble; either way
// the previous generation stays current and unchanged.
LoadSummary loadIntoDatabase(const std::filesystem::path& root, const std::vector<std::string>& inputs,
                             const LoadOptions& options);

}  // namespace gsparql
