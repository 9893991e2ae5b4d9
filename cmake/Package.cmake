# `cpack -G DEB` in a build folder: gsparql_VERSION_amd64.deb, one package
# with the command line, the library and its headers, the query page and the
# Python module, installed under /usr. Its Depends line is computed by
# dpkg-shlibdeps from the Debian libraries the binaries load.
set(CPACK_PACKAGE_NAME gsparql)
set(CPACK_PACKAGE_VENDOR "gsparql")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU-accelerated SPARQL 1.1 engine and RDF store")
set(CPACK_PACKAGE_DESCRIPTION
  "Loads RDF into a database directory and answers SPARQL 1.1 queries and updates on a multi-threaded CPU executor or an NVIDIA GPU, from the command line, a REPL, a SPARQL Protocol server with a query page, C++ (libgsparql) and Python (with an rdflib store).")
set(CPACK_PACKAGE_CONTACT "gsparql developers <gsparql@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gsparql_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The Python module needs libgsparql.so.0, which is in this very package.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/api)
# dpkg-shlibdeps sees the libraries linked, not those opened on first use
# (platform/shared_library.h): their packages are named here, as dpkg knows
# them on the machine that builds the package.
set(gsparql_depends "python3 (>= 3.11), python3 (<< 3.12)")
get_property(gsparql_opened GLOBAL PROPERTY GSPARQL_LIBRARIES_ON_FIRST_USE)
foreach(library ${gsparql_opened})
  execute_process(COMMAND dpkg -S ${library} OUTPUT_VARIABLE owner RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "no Debian package holds ${library}, which gsparql opens on first use")
  endif()
  string(REGEX REPLACE ":.*" "" owner "${owner}")
  string(APPEND gsparql_depends ", ${owner}")
endforeach()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${gsparql_depends}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-rdflib")
set(CPACK_STRIP_FILES ON)
include(CPack)
