#pragma once
// What libgsparql.so exports. The project is compiled with hidden visibility
// (CMakeLists.txt), so only the declarations marked GSPARQL_API -- the public
// API of include/gsparql/ -- are seen by programs that link the shared
// library; the engine inside stays private to it. Exception classes are
// marked too, so that a `catch` in the program matches what the library threw.
#if defined(__GNUC__) || defined(__clang__)
#define GSPARQL_API __attribute__((visibility("default")))
#else
#define GSPARQL_API
#endif
