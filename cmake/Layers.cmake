# Layers: one static library per folder, and a folder's headers visible only
# to the targets that link its library.
#
# Every include in the project is written from the source root
# ("engine/bgp/plan.h"), so a source root on the include path would let any
# file include any other. Instead each library gets an include root of its own
# under build/layers/<target>/, holding one symbolic link: its folder. The
# root is PUBLIC, so a target sees its own folder and the folders of the
# libraries it links (transitively, through their PUBLIC links), and nothing
# else: an include that reaches up a layer, or sideways to one not linked,
# fails to compile with "No such file or directory".

# The standard headers most sources include, parsed once for every layer
# (a precompiled header all of them reuse: their flags are alike): parsing
# was a third to a half of a source's compile time.
add_library(gsparql_std_headers OBJECT ${CMAKE_CURRENT_LIST_DIR}/std_headers.cpp)
target_link_libraries(gsparql_std_headers PRIVATE gsparql_options)
target_precompile_headers(gsparql_std_headers PRIVATE
  <algorithm> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <mutex> <optional> <set> <span> <sstream>
  <string> <string_view> <unordered_map> <vector>)

# gsparql_layer(TARGET FOLDER [LINK libs...] [PRIVATE libs...] [SOURCES files...])
#   FOLDER  the folder, relative to the source root, whose headers the layer owns
#   LINK    the layers (and libraries) below it that its headers use: PUBLIC
#   PRIVATE what only its sources use
function(gsparql_layer target folder)
  cmake_parse_arguments(PARSE_ARGV 2 layer "" "" "LINK;PRIVATE;SOURCES")
  if(layer_SOURCES)
    add_library(${target} STATIC ${layer_SOURCES})
  else()
    add_library(${target} INTERFACE)
  endif()
  gsparql_layer_headers(${target} ${folder})
  if(layer_SOURCES)
    target_link_libraries(${target} PUBLIC ${layer_LINK} PRIVATE gsparql_options ${layer_PRIVATE})
  else()
    target_link_libraries(${target} INTERFACE ${layer_LINK})
  endif()
endfunction()

# The include root of TARGET: a link to FOLDER alone (for targets made
# elsewhere, such as the parser's with its generated sources).
function(gsparql_layer_headers target folder)
  set(root ${PROJECT_BINARY_DIR}/layers/${target})
  cmake_path(GET folder PARENT_PATH parent)
  file(MAKE_DIRECTORY ${root}/${parent})
  if(NOT IS_SYMLINK ${root}/${folder})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${root})
  else()
    target_include_directories(${target} PUBLIC ${root})
  endif()
  if(type MATCHES "^(STATIC|OBJECT|MODULE)_LIBRARY$")  # built -fPIC, as the precompiled headers are
    target_precompile_headers(${target} REUSE_FROM gsparql_std_headers)
  endif()
endfunction()
