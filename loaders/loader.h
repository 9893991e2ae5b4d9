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

class GenerationWriter;
struct Generation;
class GraphStore;
class GraphChanges;

// Throws LoadError for bad input and StorageError for I/O trouble; either way
// the previous generation stays current and unchanged.
LoadSummary loadIntoDatabase(const std::filesystem::path& root, const std::vector<std::string>& inputs,
                             const LoadOptions& options);

// Reads `input` as a load would (its format by name), writing nothing:
// throws LoadError (file:line:column) at its first error.
void checkRdfInput(const std::string& input);

// Builds `previous` (the writer's previous generation, or a step below)
// changed by `changes` (an update: deletions, insertions, files loaded) as
// the writer's next generation, ready for writer.commit(); commit once
// nothing reads `previous` any more, else the commit cannot remove it. The
// previous generation's terms keep their ids, those no triple uses any more
// stay in the dictionary. The insertions count as one input for blank-node
// scopes: their fresh blank nodes are labelled `_:f<n>_...`, n the previous
// catalog's inputFiles + 1.
LoadSummary buildChangedGeneration(GenerationWriter& writer, const GraphStore& previous, const GraphChanges& changes,
                                   const LoadOptions& options);

// The same into the folder step.dir, created here, without committing it:
// an intermediate state of an update that later operations read
// (GraphStore(PinnedGeneration::pinFolder(step))). Nothing is fsynced; the
// caller removes the folder (a writer also removes any gen-* folder that is
// not a generation, left by a crash).
void writeStepGeneration(const Generation& step, const GraphStore& previous, const GraphChanges& changes,
                         const LoadOptions& options);

}  // namespace gsparql
