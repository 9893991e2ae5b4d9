#include "engine/service/http_post.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "engine/service/curl_library.h"
#include "engine/service/endpoint_policy.h"
#include "engine/service/remote_failure.h"
#include "gsparql/error.h"

namespace gsparql::engine::service {
namespace {

constexpr int kMaxRedirects = 3;
constexpr long kMaxConnectMilliseconds = 10000;
constexpr size_t kQuotedBodyBytes = 300;  // of an error answer, in the message

using Curl = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;

struct Transfer {
  std::string body{};
  uint64_t maxBytes = 0;
  bool tooLarge = false;
  const QueryLimits* limits = nullptr;
};

size_t receive(char* data, size_t size, size_t count, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (t.body.size() + bytes > t.maxBytes) {
    t.tooLarge = true;
    return 0;  // aborts the transfer
  }
  t.body.append(data, bytes);
  return bytes;
}

// libcurl calls it often while data flows and about once a second while
// waiting: a nonzero return aborts, so that a cancelled query stops.
int progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<Transfer*>(user)->limits->stopRequested() ? 1 : 0;
}

// What this request may still take: the request's own limit, cut to what
// the query's deadline leaves.
long timeoutMilliseconds(const ServiceAccess& access, const QueryLimits& limits) {
  auto left = access.requestTimeout;
  if (limits.deadline) {
    const auto toDeadline = std::chrono::duration_cast<std::chrono::milliseconds>(*limits.deadline -
                                                                                   std::chrono::steady_clock::now());
    left = std::min(left, toDeadline);
  }
  return std::max<long>(1, static_cast<long>(left.count()));
}

std::string quotedBody(const std::string& body) {
  std::string text = body.substr(0, kQuotedBodyBytes);
  std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return body.size() > kQuotedBodyBytes ? text + "..." : text;
}

Curl handleFor(const std::string& url, const std::string& form, const ServiceAccess& access, long timeout,
               Transfer& transfer, curl_slist* headers, curl_slist* connectTo) {
  const CurlLibrary& lib = curlLibrary();
  Curl curl(lib.curl_easy_init(), lib.curl_easy_cleanup);
  if (!curl) throw RemoteFailure("cannot start an HTTP request");
  CURL* h = curl.get();
  lib.curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  lib.curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  lib.curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  lib.curl_easy_setopt(h, CURLOPT_POSTFIELDS, form.c_str());
  lib.curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(form.size()));
  lib.curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  lib.curl_easy_setopt(h, CURLOPT_CONNECT_TO, connectTo);
  lib.curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // any encoding libcurl decodes
  lib.curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(access.maxResponseBytes));
  lib.curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &receive);
  lib.curl_easy_setopt(h, CURLOPT_WRITEDATA, &transfer);
  lib.curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  lib.curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &progress);
  lib.curl_easy_setopt(h, CURLOPT_XFERINFODATA, &transfer);
  lib.curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout);
  lib.curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeout, kMaxConnectMilliseconds));
  return curl;
}

}  // namespace

HttpReply postQuery(const std::string& endpoint, const std::string& query, const ServiceAccess& access,
                    const QueryLimits& limits) {
  const CurlLibrary& lib = curlLibrary();
  Curl encoder(lib.curl_easy_init(), lib.curl_easy_cleanup);
  if (!encoder) throw RemoteFailure("cannot start an HTTP request");
  std::unique_ptr<char, decltype(&curl_free)> escaped(
      lib.curl_easy_escape(encoder.get(), query.data(), static_cast<int>(query.size())), lib.curl_free);
  const std::string form = "query=" + std::string(escaped.get());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(nullptr, lib.curl_slist_free_all);
  for (const char* header : {"Accept: application/sparql-results+json, application/sparql-results+xml;q=0.9",
                             "Content-Type: application/x-www-form-urlencoded"}) {
    headers.reset(lib.curl_slist_append(headers.release(), header));
  }
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> connectTo(nullptr, lib.curl_slist_free_all);
  for (const std::string& entry : access.connectTo) connectTo.reset(lib.curl_slist_append(connectTo.release(), entry.c_str()));
  // Redirects are followed here, not by libcurl, so that each target passes
  // the endpoint check (an allowed endpoint must not lead to any URL).
  std::string url = endpoint;
  for (int redirects = 0;; ++redirects) {
    checkEndpoint(url, access);
    Transfer transfer{.maxBytes = access.maxResponseBytes, .limits = &limits};
    const long timeout = timeoutMilliseconds(access, limits);
    Curl curl = handleFor(url, form, access, timeout, transfer, headers.get(), connectTo.get());
    const CURLcode code = lib.curl_easy_perform(curl.get());
    limits.throwIfStopped();
    if (transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED) {
      throw RemoteFailure("the answer is larger than " + std::to_string(access.maxResponseBytes) + " bytes (the limit)");
    }
    if (code == CURLE_OPERATION_TIMEDOUT) {
      // Cut to the query's deadline, curl's clock may end the wait a moment before it.
      if (timeout < access.requestTimeout.count()) throw QueryTimedOut(limits.timeoutSeconds);
      throw RemoteFailure("no answer within " + std::to_string(timeout) + " ms");
    }
    if (code != CURLE_OK) throw RemoteFailure(lib.curl_easy_strerror(code));
    long status = 0;
    lib.curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    char* location = nullptr;
    lib.curl_easy_getinfo(curl.get(), CURLINFO_REDIRECT_URL, &location);
    if (status >= 300 && status < 400 && location != nullptr) {
      if (redirects == kMaxRedirects) throw RemoteFailure("more than " + std::to_string(kMaxRedirects) + " redirects");
      url = location;
      continue;
    }
    if (status < 200 || status >= 300) {
      throw RemoteFailure("HTTP status " + std::to_string(status) + ": " + quotedBody(transfer.body));
    }
    char* type = nullptr;
    lib.curl_easy_getinfo(curl.get(), CURLINFO_CONTENT_TYPE, &type);
    return {type != nullptr ? type : "", std::move(transfer.body)};
  }
}

}  // namespace gsparql::engine::service
