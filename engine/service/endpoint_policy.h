#pragma once
// Which endpoints SERVICE may ask (QueryOptions::service): the one check
// made before every request and every redirect it follows.
#include <string>

#include "gsparql/query.h"

namespace gsparql::engine::service {

// Throws QueryError naming the endpoint and why it is refused: a scheme
// other than http or https, or an endpoint `access` does not allow.
void checkEndpoint(const std::string& url, const ServiceAccess& access);

}  // namespace gsparql::engine::service
