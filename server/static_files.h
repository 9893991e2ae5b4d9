#pragma once
// The query page's files (web/, or share/gsparql/web once installed),
// served at / by GET and HEAD: index.html for /, a file's media type from
// its extension, nothing outside the folder.
#include <filesystem>
#include <string_view>

#include "server/http_exchange.h"

namespace gsparql::server {

// 404 for a path that names no file of `folder` (or leaves it), with a
// hint where the page itself is missing.
HttpResponse staticFile(const std::filesystem::path& folder, std::string_view path);

}  // namespace gsparql::server
