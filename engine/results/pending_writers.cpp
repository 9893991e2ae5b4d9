// Temporary: the formats not written yet fall back to TSV.
#include "engine/results/writers.h"

namespace gsparql::results {
std::unique_ptr<ResultWriter> makeCsvWriter(std::ostream& out) { return makeTsvWriter(out); }
std::unique_ptr<ResultWriter> makeJsonWriter(std::ostream& out) { return makeTsvWriter(out); }
std::unique_ptr<ResultWriter> makeXmlWriter(std::ostream& out) { return makeTsvWriter(out); }
std::unique_ptr<ResultWriter> makeTableWriter(std::ostream& out, TableOptions) { return makeTsvWriter(out); }
size_t displayWidth(std::string_view s) { return s.size(); }
}  // namespace gsparql::results
