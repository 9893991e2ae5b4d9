#include "engine/service/curl_library.h"

namespace gsparql::engine::service {

GSPARQL_DEFINE_LIBRARY_TABLE(CurlLibrary, curlLibrary, GSPARQL_CURL_FUNCTIONS, GSPARQL_CURL_SONAME, "SERVICE",
                              // once, before any handle: it is not thread-safe
                              table.curl_global_init(CURL_GLOBAL_DEFAULT);)

}  // namespace gsparql::engine::service
