#pragma once
// Decoding of SPARQL lexical forms: escapes, prefixed names.
#include <string>
#include <string_view>

namespace gsparql::sparql::lexical {

// Removes the quotes of any of the four string token forms and decodes ECHAR
// and UCHAR escapes. Throws std::invalid_argument on an invalid code point.
std::string decodeString(std::string_view token);

// The content of an IRIREF token (without < >), UCHAR escapes decoded.
std::string decodeIriRef(std::string_view token);

// The local part of a prefixed name with `\` escapes removed (%XX stays).
std::string decodeLocalName(std::string_view local);

// Byte offset of the first invalid UTF-8 sequence, or npos.
std::size_t invalidUtf8Offset(std::string_view text);

}  // namespace gsparql::sparql::lexical
