// libFuzzer target: a search text of text:query, parsed and searched in a
// small database (loaded once, into a temporary folder, at the first input).
// A finding is anything but a clean return, a TextQueryError or a
// QueryError: crashes, sanitizer reports, other exceptions, timeouts.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include "engine/bgp/query_limits.h"
#include "engine/text/text_query.h"
#include "engine/text/text_search.h"
#include "gsparql/database.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"

namespace {

const char* const kData = R"ttl(
<http://e/a> <http://e/label> "The quick brown fox" , "Éclair au café"@fr .
<http://e/b> <http://e/label> "A lazy fox's den (e-mail: fox@example.org)" .
<http://e/c> <http://e/comment> "3.14 is π; x_1 y2 ÜBER straße 東京タワー" .
)ttl";

const gsparql::GraphStore& store() {
  static const std::unique_ptr<gsparql::GraphStore> loaded = [] {
    const auto dir = std::filesystem::temp_directory_path() / ("text-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "data.ttl") << kData;
    gsparql::Database::load(dir / "db", {(dir / "data.ttl").string()});
    return std::make_unique<gsparql::GraphStore>(dir / "db");
  }();
  return *loaded;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const gsparql::engine::text::TextNode query = gsparql::engine::text::parseTextQuery(text);
    const gsparql::engine::QueryLimits limits;
    gsparql::engine::StopCheck stop(limits);
    gsparql::engine::text::TextSearch search;
    if (size % 4 == 0) search.limit = 2;
    if (size % 3 == 0) search.language = "en";  // words matched by their stems
    const auto matches = gsparql::engine::text::searchText(query, store(), search, stop);
    if (matches.literals.size() != matches.scores.size()) __builtin_trap();
  } catch (const gsparql::engine::text::TextQueryError&) {
  } catch (const gsparql::QueryError&) {
  }
  return 0;
}
