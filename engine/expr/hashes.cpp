// MD5, SHA1, SHA256, SHA384, SHA512 (section 17.4.6) of the UTF-8 lexical
// form, written as lower-case hex.
#include "engine/expr/builtins.h"
#include "engine/expr/crypto_library.h"

namespace gsparql::engine::expr {
namespace {

// The digest's function in libcrypto's table (&CryptoLibrary::EVP_md5, ...).
using Algorithm = decltype(&::EVP_md5) CryptoLibrary::*;

Result digest(const Arg& arg, Algorithm algorithm) {
  if (!arg.term.isSimple()) return std::nullopt;
  const CryptoLibrary& crypto = cryptoLibrary();
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!crypto.EVP_Digest(arg.term.value.data(), arg.term.value.size(), hash, &size, (crypto.*algorithm)(), nullptr)) {
    return std::nullopt;
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    out += hex[hash[i] >> 4];
    out += hex[hash[i] & 15];
  }
  return stringTerm(out);
}

Result md5(const std::vector<Arg>& a, CallContext&) { return digest(a[0], &CryptoLibrary::EVP_md5); }
Result sha1(const std::vector<Arg>& a, CallContext&) { return digest(a[0], &CryptoLibrary::EVP_sha1); }
Result sha256(const std::vector<Arg>& a, CallContext&) { return digest(a[0], &CryptoLibrary::EVP_sha256); }
Result sha384(const std::vector<Arg>& a, CallContext&) { return digest(a[0], &CryptoLibrary::EVP_sha384); }
Result sha512(const std::vector<Arg>& a, CallContext&) { return digest(a[0], &CryptoLibrary::EVP_sha512); }

}  // namespace

std::vector<Builtin> hashBuiltins() {
  return {{"MD5", md5, 1, 1},       {"SHA1", sha1, 1, 1},     {"SHA256", sha256, 1, 1},
          {"SHA384", sha384, 1, 1}, {"SHA512", sha512, 1, 1}};
}

}  // namespace gsparql::engine::expr
