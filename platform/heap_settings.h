#pragma once
// How the process's allocator keeps memory between a query's allocations.
//
// glibc's malloc serves a block above its mmap threshold (128 KiB at start)
// with a fresh mapping and unmaps it when freed, and trims the heap's top
// once 128 KiB are free there; both thresholds rise as the process frees
// large mapped blocks (up to 32 and 64 MiB). A long-running process reaches
// those values after its first large query, but a one-shot `gsparql query`
// never does: each doubling of a result column mapped, touched page by page
// and unmapped again, so WatDiv SF100's C3 (424,856 rows) took about 9,000
// page faults against 4,000 (docs/engine.md, "The allocator's settings of
// the command-line program"). Called by the command-line program only: a library embedded in
// another program (Python's module) leaves its allocator alone.
namespace gsparql {

// Sets the thresholds a long-running process reaches on its own (a no-op
// where the C library is not glibc).
void startWithWarmHeapSettings();

}  // namespace gsparql
