#include "engine/expr/crypto_library.h"

namespace gsparql::engine::expr {

const CryptoLibrary& cryptoLibrary() {
  static const CryptoLibrary table = [] {
    static const SharedLibrary library(GSPARQL_CRYPTO_SONAME, "MD5 and SHA*");
    CryptoLibrary table;
    GSPARQL_CRYPTO_FUNCTIONS(GSPARQL_RESOLVE_FUNCTION)
    return table;
  }();
  return table;
}

}  // namespace gsparql::engine::expr
