#pragma once
// A shared library opened when first needed (dlopen), for the optional
// parts of gsparql whose libraries are large or bring dozens of their own:
// PROJ (coordinate transformations), Raptor (RDF/XML), libcurl (SERVICE)
// and libcrypto (MD5, SHA*).
// Linked at start, they made every process, `gsparql --version` included,
// load and relocate some 40 libraries it seldom used (docs/engine.md,
// "Libraries opened on first use"). Each user keeps a table of the functions
// it calls, resolved once by name (see engine/geo/proj_library.h).
#include <string>

namespace gsparql {

class SharedLibrary {
 public:
  // Opens `soname` (e.g. "libproj.so.25"), found as the loader finds any
  // library: the binary's rpath, LD_LIBRARY_PATH, the system's folders.
  // `purpose` says what needs it, for the error a person reads when it is
  // missing ("transforming coordinates needs libproj.so.25, which ...").
  SharedLibrary(std::string soname, std::string purpose);
  // Kept open for the process's life: its functions may be called from any
  // thread until exit, as those of a linked library are.
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // The function `name` as a pointer of type F (decltype(&::name) where the
  // library's header declares it); an Error when the library lacks it.
  template <typename F>
  F function(const char* name) const {
    return reinterpret_cast<F>(symbol(name));
  }

 private:
  void* symbol(const char* name) const;

  std::string soname_;
  std::string purpose_;
  void* handle_;
};

}  // namespace gsparql

// A table of a C library's functions, listed by an X-macro such as
// GSPARQL_PROJ_FUNCTIONS(X) and named as the library's header names them:
// in the table's struct,  GSPARQL_PROJ_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
// and where `table` is filled from the SharedLibrary `library`,
//                         GSPARQL_PROJ_FUNCTIONS(GSPARQL_RESOLVE_FUNCTION)
#define GSPARQL_FUNCTION_POINTER(name) decltype(&::name) name = nullptr;
#define GSPARQL_RESOLVE_FUNCTION(name) table.name = library.function<decltype(&::name)>(#name);

// Defines `const Table& accessor()`: the table of the functions FUNCTIONS
// lists, from the library `soname` opened by the first call (on any thread,
// once; a call after a failure tries again). Statements after `purpose` run
// once with the filled `table` (a library's own set-up).
#define GSPARQL_DEFINE_LIBRARY_TABLE(Table, accessor, FUNCTIONS, soname, purpose, ...) \
  const Table& accessor() {                                                             \
    static const Table filled = [] {                                                    \
      static const ::gsparql::SharedLibrary library(soname, purpose);                  \
      Table table;                                                                      \
      FUNCTIONS(GSPARQL_RESOLVE_FUNCTION)                                               \
      __VA_ARGS__                                                                       \
      return table;                                                                     \
    }();                                                                                \
    return filled;                                                                      \
  }
