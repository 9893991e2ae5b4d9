#include "engine/service/curl_library.h"

namespace gsparql::engine::service {

const CurlLibrary& curlLibrary() {
  static const CurlLibrary table = [] {
    static const SharedLibrary library(GSPARQL_CURL_SONAME, "SERVICE");
    CurlLibrary table;
    GSPARQL_CURL_FUNCTIONS(GSPARQL_RESOLVE_FUNCTION)
    table.curl_global_init(CURL_GLOBAL_DEFAULT);  // once, before any handle: it is not thread-safe
    return table;
  }();
  return table;
}

}  // namespace gsparql::engine::service
