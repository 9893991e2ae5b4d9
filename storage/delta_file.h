#pragma once
// The durable delta of a generation: small updates are written as files
// `delta-000001`, `delta-000002`, ... in the folder of the generation they
// change, instead of as a new generation (docs/storage.md, "Delta"). Each
// file holds one update's triples as terms, deletions then insertions, and
// becomes visible whole: it is written as `delta-N.tmp`, fsynced, renamed
// and the folder fsynced, so a crash leaves a file complete or absent.
//
// Format: magic "GSDELTA1", uint32 record count, then per record one byte
// '+' (insert) or '-' (delete) and the three terms (subject, predicate key
// as storage/named_graphs.h spells it, object), each a uint32 length and
// its bytes; then the crc32 of everything before it.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "storage/graph_changes.h"

namespace gsparql {

struct DeltaRecord {
  bool insert = true;
  TermTriple triple;
};

// The delta files of a generation folder, numbered 1..n without a gap.
uint32_t deltaFileCount(const std::filesystem::path& generationDir);
bool hasDeltaFile(const std::filesystem::path& generationDir, uint32_t number);
// An update's changes (no clears or loaded files: fitsDelta) as records:
// its deletions, then its insertions (a triple is never in both).
std::vector<DeltaRecord> deltaRecordsOf(const GraphChanges& changes);
// Writes the records (those of one update, or of several in the order
// they ran: a later record on a triple wins) as file `number` of the
// folder, durably; removes stale `.tmp` files first.
void writeDeltaFile(const std::filesystem::path& generationDir, uint32_t number, const std::vector<DeltaRecord>& records);
// Whether an update's changes go to the delta: only triples (no CLEAR, DROP
// or LOAD), at most kMaxDeltaRecords of them.
inline constexpr uint64_t kMaxDeltaRecords = 100'000;
bool fitsDelta(const GraphChanges& changes);
// Whether a generation with `files` delta files of `records` records in all
// and `triples` triples is due a merge: every reader replays the delta when
// it opens the snapshot, so it stays small beside the generation.
bool deltaDueForMerge(uint32_t files, uint64_t records, uint64_t triples);
// The records of files first..last in order (none where last < first);
// throws StorageError "database corrupted: ..." for a damaged file.
std::vector<DeltaRecord> readDeltaFiles(const std::filesystem::path& generationDir, uint32_t first, uint32_t last);

}  // namespace gsparql
