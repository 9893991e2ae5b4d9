#include "server/static_files.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

namespace gsparql::server {
namespace {

namespace fs = std::filesystem;

std::string mediaTypeOf(const fs::path& file) {
  const std::string extension = file.extension().string();
  if (extension == ".html") return "text/html; charset=utf-8";
  if (extension == ".js" || extension == ".mjs") return "text/javascript; charset=utf-8";
  if (extension == ".css") return "text/css; charset=utf-8";
  if (extension == ".json" || extension == ".map") return "application/json";
  if (extension == ".svg") return "image/svg+xml";
  if (extension == ".png") return "image/png";
  if (extension == ".ico") return "image/vnd.microsoft.icon";
  if (extension == ".woff2") return "font/woff2";
  if (extension == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// The file that `path` names inside `folder`: none for a segment that is
// "..", or for anything that resolves outside the folder (a link).
std::optional<fs::path> fileOf(const fs::path& folder, std::string_view path) {
  const fs::path relative = fs::path(path == "/" ? std::string_view("/index.html") : path).relative_path();
  for (const fs::path& segment : relative) {
    if (segment == "..") return std::nullopt;
  }
  std::error_code error;
  const fs::path root = fs::canonical(folder, error);
  if (error) return std::nullopt;
  const fs::path file = fs::canonical(root / relative, error);
  if (error || !fs::is_regular_file(file, error)) return std::nullopt;
  const auto [end, _] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  if (end != root.end()) return std::nullopt;
  return file;
}

}  // namespace

HttpResponse staticFile(const fs::path& folder, std::string_view path) {
  HttpResponse response;
  const auto file = folder.empty() ? std::nullopt : fileOf(folder, path);
  std::ifstream in;
  if (file) in.open(*file, std::ios::binary);
  if (!in.is_open()) {
    response.status = 404;
    std::error_code error;
    const bool installed = !folder.empty() && fs::exists(folder / "index.html", error);
    response.setContent(installed ? "no such file: " + std::string(path) + "\n"
                                  : "the query page is not installed (no folder " + folder.string() +
                                        "): run `npm ci` in web/ or pass --web DIR; the endpoint is at /sparql\n",
                        "text/plain; charset=utf-8");
    return response;
  }
  std::ostringstream content;
  content << in.rdbuf();
  response.setContent(content.str(), mediaTypeOf(*file));
  return response;
}

}  // namespace gsparql::server
