#pragma once
// The functions of libcurl that http_post.cpp calls, from libcurl opened by
// the first SERVICE request (platform/shared_library.h): libcurl brings
// GnuTLS, Kerberos, LDAP and SSH libraries, which a query without SERVICE
// never needs.
// curl.h's type-checking macros for curl_easy_setopt and curl_easy_getinfo
// would expand inside `curl.curl_easy_setopt(...)`: the table's calls go
// without them.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "platform/shared_library.h"

namespace gsparql::engine::service {

#define GSPARQL_CURL_FUNCTIONS(X)                                                                      \
  X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt) X(curl_easy_perform) \
  X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_easy_escape) X(curl_free) X(curl_slist_append)    \
  X(curl_slist_free_all)

struct CurlLibrary {
  GSPARQL_CURL_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

// Loads libcurl and runs curl_global_init on the first call (from any
// thread); an Error when it cannot.
const CurlLibrary& curlLibrary();

}  // namespace gsparql::engine::service
