// Libraries opened on first use (platform/shared_library.h): a function
// found and called, and the errors a person reads when a library or one of
// its functions is missing.
#include <doctest/doctest.h>

#include <cmath>

#include "gsparql/error.h"
#include "platform/shared_library.h"

using gsparql::SharedLibrary;

namespace {

#define TEST_LIBM_FUNCTIONS(X) X(cos) X(sqrt)

struct LibmTable {
  TEST_LIBM_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

int setUps = 0;  // how often the table's set-up ran

GSPARQL_DEFINE_LIBRARY_TABLE(LibmTable, libmTable, TEST_LIBM_FUNCTIONS, "libm.so.6", "this test", ++setUps;)

}  // namespace

TEST_CASE("a function of a library opened by its SONAME is the library's function") {
  const SharedLibrary libm("libm.so.6", "this test");
  const auto cosine = libm.function<double (*)(double)>("cos");
  CHECK(cosine(0.0) == 1.0);
  CHECK(cosine(M_PI) == doctest::Approx(-1.0));
  // Two openings of one library are one library: the same function.
  const SharedLibrary again("libm.so.6", "this test");
  CHECK(reinterpret_cast<void*>(again.function<double (*)(double)>("cos")) == reinterpret_cast<void*>(cosine));
}

TEST_CASE("a library that cannot be loaded, or lacks a function, is an error naming it and what needed it") {
  CHECK_THROWS_WITH_AS(SharedLibrary("libgsparql-absent.so.9", "reading absent things"),
                       doctest::Contains("reading absent things needs libgsparql-absent.so.9, which cannot be loaded"),
                       gsparql::Error);
  const SharedLibrary libm("libm.so.6", "measuring angles");
  CHECK_THROWS_WITH_AS(libm.function<void (*)()>("gsparql_no_such_function"),
                       doctest::Contains("measuring angles needs gsparql_no_such_function from libm.so.6, which lacks it"),
                       gsparql::Error);
}

TEST_CASE("a table of a library's functions is filled by its first use, and its set-up runs once") {
  CHECK(setUps == 0);
  const LibmTable& table = libmTable();
  CHECK(table.cos(0.0) == 1.0);
  CHECK(table.sqrt(2.0) == doctest::Approx(1.41421356));
  CHECK(&libmTable() == &table);
  CHECK(setUps == 1);
}
