# Third-party libraries, all from Debian packages (scripts/install-deps.sh).
# A portable build links the archives Debian ships and keeps the few shared
# library without an archive (oneTBB) in lib/ beside the binary, and
# Raptor with the libraries it loads (scripts/package-portable.sh): Debian's
# libraptor2.a needs libxslt and libyajl, which have no archive.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(TBB REQUIRED)
# RDF/XML (loaders/rdfxml_reader.cpp): Raptor 2, and libxml2 under it, whose
# last error gives a well-formedness error's column.
pkg_check_modules(RAPTOR2 REQUIRED IMPORTED_TARGET raptor2)
pkg_check_modules(LIBXML2 REQUIRED IMPORTED_TARGET libxml-2.0)
# SERVICE (engine/service/): libcurl for its HTTP requests, nlohmann/json
# for the JSON results; the XML results are read with libxml2.
pkg_check_modules(CURL REQUIRED IMPORTED_TARGET libcurl)
find_package(nlohmann_json 3 REQUIRED)
# The text index's words (storage/text_words.cpp): ICU's word boundaries and
# lower case. Shared in a portable build too: libxml2 loads the same ICU.
pkg_check_modules(ICU_UC REQUIRED IMPORTED_TARGET icu-uc)
# MD5 and SHA* (engine/expr/hashes.cpp): OpenSSL's libcrypto, opened on first use.
pkg_check_modules(LIBCRYPTO REQUIRED libcrypto)
# GeoSPARQL (engine/geo/): GEOS through its stable C API, geos_c.h, opened on first use.
pkg_check_modules(GEOS REQUIRED IMPORTED_TARGET geos)

# gsparql_open_on_first_use(TARGET PKG DEFINE): TARGET compiles against the
# headers of the pkg-config package found as PKG (a pkg_check_modules
# prefix) but does not link it; it opens the library with dlopen when first
# needed (platform/shared_library.h), by the SONAME given to its sources as
# the string macro DEFINE. Each such library is listed, by path, in
# libraries-on-first-use.txt of the build folder, for the Debian package's
# Depends (cmake/Package.cmake) and the portable package's lib/
# (scripts/package-portable.sh).
find_program(GSPARQL_READELF NAMES readelf REQUIRED)
function(gsparql_open_on_first_use target pkg define)
  list(GET ${pkg}_LINK_LIBRARIES 0 library)
  execute_process(COMMAND ${GSPARQL_READELF} -d ${library} OUTPUT_VARIABLE dynamic COMMAND_ERROR_IS_FATAL ANY)
  if(NOT dynamic MATCHES "Library soname: \\[([^]]+)\\]")
    message(FATAL_ERROR "no SONAME in ${library}")
  endif()
  set(soname ${CMAKE_MATCH_1})
  target_include_directories(${target} SYSTEM PRIVATE ${${pkg}_INCLUDE_DIRS})
  target_compile_definitions(${target} PRIVATE ${define}="${soname}")
  target_link_libraries(${target} PRIVATE gsparql_platform)
  cmake_path(GET library PARENT_PATH folder)
  set_property(GLOBAL APPEND PROPERTY GSPARQL_LIBRARIES_ON_FIRST_USE ${folder}/${soname})
  get_property(all GLOBAL PROPERTY GSPARQL_LIBRARIES_ON_FIRST_USE)
  list(JOIN all "\n" lines)
  file(WRITE ${PROJECT_BINARY_DIR}/libraries-on-first-use.txt "${lines}\n")
endfunction()

set(GSPARQL_LIBDIR /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})

function(gsparql_archive_or_shared out name)
  if(GSPARQL_PORTABLE AND EXISTS ${GSPARQL_LIBDIR}/lib${name}.a)
    set(${out} ${GSPARQL_LIBDIR}/lib${name}.a PARENT_SCOPE)
  else()
    find_library(_lib_${name} NAMES ${name} REQUIRED)
    set(${out} ${_lib_${name}} PARENT_SCOPE)
  endif()
endfunction()

gsparql_archive_or_shared(GSPARQL_ZSTD zstd)
gsparql_archive_or_shared(GSPARQL_BZ2 bz2)
gsparql_archive_or_shared(GSPARQL_LZMA lzma)
gsparql_archive_or_shared(GSPARQL_Z z)
gsparql_archive_or_shared(GSPARQL_LZ4 lz4)
gsparql_archive_or_shared(GSPARQL_SNAPPY snappy)
gsparql_archive_or_shared(GSPARQL_ROCKSDB rocksdb)

# Snowball's stemmers (engine/text/stemmer.cpp): Debian's libstemmer-dev has no pkg-config file.
gsparql_archive_or_shared(GSPARQL_STEMMER stemmer)
find_path(GSPARQL_STEMMER_INCLUDE libstemmer.h REQUIRED)

add_library(gsparql_compression INTERFACE)
target_link_libraries(gsparql_compression INTERFACE
  ${GSPARQL_ZSTD} ${GSPARQL_BZ2} ${GSPARQL_LZMA} ${GSPARQL_Z})

add_library(gsparql_rocksdb INTERFACE)
# The codecs follow RocksDB on the link line, as static archives need.
target_link_libraries(gsparql_rocksdb INTERFACE
  ${GSPARQL_ROCKSDB} ${GSPARQL_SNAPPY} ${GSPARQL_LZ4}
  ${GSPARQL_ZSTD} ${GSPARQL_BZ2} ${GSPARQL_LZMA} ${GSPARQL_Z} Threads::Threads ${CMAKE_DL_LIBS})

if(GSPARQL_PORTABLE)
  set(CMAKE_BUILD_RPATH "\$ORIGIN/lib")
  set(CMAKE_INSTALL_RPATH "\$ORIGIN/lib")
  # libgcc stays shared: oneTBB (shipped beside the binary) loads
  # libgcc_s.so.1 anyway, and a static copy's unwinder aborted every
  # exception thrown through a C frame that libgcc_s's personality handles
  # (glibc's pthread_once, say).
  add_link_options(-static-libstdc++)
  # DT_RPATH, not DT_RUNPATH: it also finds what the shared libraries in lib/
  # load (libraptor2's libxml2, libcurl, ...), which a RUNPATH would not.
  add_link_options(-Wl,--disable-new-dtags)
endif()
