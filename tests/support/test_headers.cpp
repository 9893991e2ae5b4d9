// The precompiled headers of the tests (tests/CMakeLists.txt) are built
// with this file; the executable is the support library's main alone.
