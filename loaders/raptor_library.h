#pragma once
// The functions of Raptor that rdfxml_reader.cpp calls, from libraptor2
// opened by the first RDF/XML read (platform/shared_library.h): Raptor
// brings libxslt, libyajl and libcurl, which other loads never need.
#include <raptor2.h>

#include "platform/shared_library.h"

namespace gsparql {

#define GSPARQL_RAPTOR_FUNCTIONS(X)                                                                 \
  X(raptor_alloc_memory) X(raptor_free_parser) X(raptor_free_uri) X(raptor_free_world)              \
  X(raptor_new_parser) X(raptor_new_uri) X(raptor_new_world_internal) X(raptor_parser_get_locator)  \
  X(raptor_parser_parse_abort) X(raptor_parser_parse_chunk) X(raptor_parser_parse_start)            \
  X(raptor_parser_set_option) X(raptor_parser_set_statement_handler)                                \
  X(raptor_parser_set_uri_filter) X(raptor_uri_as_counted_string) X(raptor_world_open)              \
  X(raptor_world_set_generate_bnodeid_handler) X(raptor_world_set_log_handler)

struct RaptorLibrary {
  GSPARQL_RAPTOR_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

// Loads libraptor2 on the first call (from any thread); an Error when it cannot.
const RaptorLibrary& raptorLibrary();

}  // namespace gsparql
