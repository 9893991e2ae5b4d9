#pragma once
// The HTTP exchanges of the W3C manifests that write them with the ht:
// vocabulary (the Protocol and the Graph Store Protocol tests): the
// requests to send and the statuses expected.
#include <httplib.h>

#include <optional>
#include <string>

#include "manifest.h"

namespace gsparql::conformance {

inline const std::string kHt = "http://www.w3.org/2011/http#";
inline const std::string kCnt = "http://www.w3.org/2011/content#";
inline const std::string kHts = "http://www.w3.org/2011/http-statusCodes#";

// The ht:Request `request` as the manifest writes it: its method, path
// (`defaultPath` where it has none), headers and body (in its
// cnt:characterEncoding).
httplib::Request manifestRequest(const RdfGraph& manifest, const std::string& request, const std::string& defaultPath);

// Whether `status` is one of the mf:expectedStatus of the ht:Response
// `expected` (hts:OK, hts:NotFound, ... or a class, hts:StatusCode4xx); else
// a description of what was expected ("OK NoContent ").
std::optional<std::string> unexpectedStatus(const RdfGraph& manifest, const std::string& expected, int status);

}  // namespace gsparql::conformance
