# What `cmake --install` and the Debian package (cmake/Package.cmake) put
# where, under the prefix:
#   bin/gsparql                      the command line (static in the engine, as built)
#   lib*/libgsparql.so.0             the embedding API, engine inside (api/CMakeLists.txt)
#   include/gsparql/                 its headers
#   lib*/cmake/gsparql/              find_package(gsparql): gsparql::gsparql
#   lib*/pkgconfig/gsparql.pc        pkg-config --cflags --libs gsparql
#   share/gsparql/web/               the query page, found relative to bin/ by `gsparql serve`
#   share/doc/gsparql/               README and docs
# The Python package installs itself (python/CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(GSPARQL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gsparql)

install(TARGETS gsparql_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS gsparql_shared EXPORT gsparqlTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gsparql DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT gsparqlTargets NAMESPACE gsparql:: DESTINATION ${GSPARQL_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gsparqlConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gsparqlConfig.cmake INSTALL_DESTINATION ${GSPARQL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gsparqlConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)  # 0.x: a minor version may change the API
install(FILES ${PROJECT_BINARY_DIR}/gsparqlConfig.cmake ${PROJECT_BINARY_DIR}/gsparqlConfigVersion.cmake
  DESTINATION ${GSPARQL_CMAKE_DIR})

# pkg-config: the prefix is found from the .pc file's own folder, so an
# extracted package (dpkg -x) or a moved prefix still works.
set(GSPARQL_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
cmake_path(RELATIVE_PATH CMAKE_INSTALL_PREFIX BASE_DIRECTORY ${CMAKE_INSTALL_PREFIX}/${GSPARQL_PC_DIR}
  OUTPUT_VARIABLE GSPARQL_PC_TO_PREFIX)
configure_file(${CMAKE_CURRENT_LIST_DIR}/gsparql.pc.in ${PROJECT_BINARY_DIR}/gsparql.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gsparql.pc DESTINATION ${GSPARQL_PC_DIR})

# The query page: its HTML and the one YASGUI build it loads (npm ci in web/,
# scripts/install-deps.sh), in the same layout, without source maps.
set(GSPARQL_YASGUI_BUILD ${PROJECT_SOURCE_DIR}/web/node_modules/@zazuko/yasgui/build)
install(FILES ${PROJECT_SOURCE_DIR}/web/index.html DESTINATION ${CMAKE_INSTALL_DATADIR}/gsparql/web)
install(FILES ${GSPARQL_YASGUI_BUILD}/yasgui.min.js ${GSPARQL_YASGUI_BUILD}/yasgui.min.css
  DESTINATION ${CMAKE_INSTALL_DATADIR}/gsparql/web/node_modules/@zazuko/yasgui/build OPTIONAL)

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
