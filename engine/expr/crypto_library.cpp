#include "engine/expr/crypto_library.h"

namespace gsparql::engine::expr {

GSPARQL_DEFINE_LIBRARY_TABLE(CryptoLibrary, cryptoLibrary, GSPARQL_CRYPTO_FUNCTIONS, GSPARQL_CRYPTO_SONAME,
                              "MD5 and SHA*")

}  // namespace gsparql::engine::expr
