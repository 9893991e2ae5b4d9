#include "loaders/raptor_library.h"

namespace gsparql {

GSPARQL_DEFINE_LIBRARY_TABLE(RaptorLibrary, raptorLibrary, GSPARQL_RAPTOR_FUNCTIONS, GSPARQL_RAPTOR_SONAME,
                              "reading RDF/XML")

}  // namespace gsparql
