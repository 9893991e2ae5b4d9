#pragma once
// The functions of libcrypto (OpenSSL) that hashes.cpp calls, from libcrypto
// opened by the first MD5 or SHA* of a process (platform/shared_library.h):
// a large library that most processes never call.
#include <openssl/evp.h>

#include "platform/shared_library.h"

namespace gsparql::engine::expr {

#define GSPARQL_CRYPTO_FUNCTIONS(X) \
  X(EVP_Digest) X(EVP_md5) X(EVP_sha1) X(EVP_sha256) X(EVP_sha384) X(EVP_sha512)

struct CryptoLibrary {
  GSPARQL_CRYPTO_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

// Loads libcrypto on the first call (from any thread); an Error when it cannot.
const CryptoLibrary& cryptoLibrary();

}  // namespace gsparql::engine::expr
