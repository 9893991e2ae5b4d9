#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "gsparql/database.h"
#include "rdf/term.h"
#include "rdf/typed_value.h"
#include "storage/graph_store.h"
#include "storage/value_column.h"
#include "file_damage.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
using rdf::TypedValue;
using Kind = rdf::TypedValue::Kind;

namespace {

TypedValue typed(std::string_view lexical, std::string_view type) {
  return rdf::typedValueOf(rdf::literalTerm(lexical, {}, std::string(rdf::kXsd) + std::string(type)));
}

bool isNone(std::string_view lexical, std::string_view type) { return typed(lexical, type).kind == Kind::None; }

void checkInteger(std::string_view lexical, std::string_view type, int64_t expected) {
  CAPTURE(lexical);
  CAPTURE(type);
  TypedValue v = typed(lexical, type);
  REQUIRE(v.kind == Kind::Integer);
  CHECK(v.integer == expected);
  CHECK(v.exact());
}

void checkNumber(std::string_view lexical, std::string_view type, Kind kind, double expected, bool exact) {
  CAPTURE(lexical);
  CAPTURE(type);
  TypedValue v = typed(lexical, type);
  REQUIRE(v.kind == kind);
  if (std::isnan(expected)) {
    CHECK(std::isnan(v.number));
  } else {
    CHECK(v.number == expected);
    CHECK(std::signbit(v.number) == std::signbit(expected));
  }
  CHECK(v.exact() == exact);
}

constexpr int64_t kSecond = 1000000;
constexpr int64_t k2000 = int64_t{946684800} * kSecond;  // 2000-01-01T00:00:00Z

void checkDateTime(std::string_view lexical, std::string_view type, int64_t micros, std::optional<int> timezone,
                   bool exact = true) {
  CAPTURE(lexical);
  CAPTURE(type);
  TypedValue v = typed(lexical, type);
  REQUIRE(v.kind == Kind::DateTime);
  CHECK(v.micros == micros);
  CHECK(v.hasTimezone() == timezone.has_value());
  CHECK(v.timezoneMinutes == timezone.value_or(0));
  CHECK(v.isDate() == (type == "date"));
  CHECK(v.exact() == exact);
}

// Every vertex's entry is the value of its term in the dictionary.
size_t checkColumnMatchesDictionary(const GraphStore& store) {
  const ValueColumn* column = store.values();
  REQUIRE(column != nullptr);
  REQUIRE(column->size() == store.catalog().vertexCount);
  size_t typed = 0, checked = 0;
  store.dictionary().forEach(TermSpace::Vertex, [&](uint32_t id, std::string_view term) {
    CAPTURE(term);
    REQUIRE(id < column->size());
    CHECK(column->at(id) == rdf::typedValueOf(term));
    typed += column->at(id).kind != Kind::None;
    ++checked;
  });
  CHECK(checked == column->size());
  store.verify();
  return typed;
}

std::optional<TypedValue> valueOfTerm(const GraphStore& store, const std::string& term) {
  auto id = store.dictionary().id(TermSpace::Vertex, term);
  if (!id) return std::nullopt;
  return store.values()->at(*id);
}

const char* kSmallGraph = R"(<http://e/a> <http://e/price> "500"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://e/a> <http://e/price> "+0501"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://e/a> <http://e/price> " 1"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://e/a> <http://e/price> "12.50"^^<http://www.w3.org/2001/XMLSchema#decimal> .
<http://e/a> <http://e/price> "0.1"^^<http://www.w3.org/2001/XMLSchema#decimal> .
<http://e/a> <http://e/price> "1e3"^^<http://www.w3.org/2001/XMLSchema#double> .
<http://e/a> <http://e/price> "INF"^^<http://www.w3.org/2001/XMLSchema#float> .
<http://e/a> <http://e/price> "300"^^<http://www.w3.org/2001/XMLSchema#unsignedByte> .
<http://e/a> <http://e/price> "-7"^^<http://www.w3.org/2001/XMLSchema#short> .
<http://e/a> <http://e/flag> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .
<http://e/a> <http://e/when> "2000-01-01T01:00:00+01:00"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<http://e/a> <http://e/when> "2000-01-01"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/a> <http://e/when> "2000-02-30"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/a> <http://e/name> "500" .
<http://e/a> <http://e/name> "500"@en .
<http://e/a> <http://e/name> "500"^^<http://e/custom> .
<http://e/a> <http://e/knows> _:b .
)";

}  // namespace

TEST_CASE("TypedValue has the fixed 16-byte layout of the values file") {
  CHECK(sizeof(TypedValue) == 16);
  CHECK(offsetof(TypedValue, kind) == 0);
  CHECK(offsetof(TypedValue, flags) == 1);
  CHECK(offsetof(TypedValue, timezoneMinutes) == 2);
  CHECK(offsetof(TypedValue, reserved) == 4);
  CHECK(offsetof(TypedValue, integer) == 8);
  CHECK(offsetof(TypedValue, number) == 8);
  CHECK(offsetof(TypedValue, micros) == 8);
  CHECK(sizeof(ValueFileHeader) == 64);
  TypedValue none;
  CHECK(none.kind == Kind::None);
  CHECK(none.integer == 0);
}

TEST_CASE("typedValueOf: terms without a typed value") {
  for (const char* term : {"<http://www.w3.org/2001/XMLSchema#integer>", "_:b1", "\"12\"", "\"12\"@en",
                           "\"12\"^^<http://example.org/integer>", "\"12:00:00\"^^<http://www.w3.org/2001/XMLSchema#time>",
                           "\"2000\"^^<http://www.w3.org/2001/XMLSchema#gYear>",
                           "\"P1D\"^^<http://www.w3.org/2001/XMLSchema#duration>",
                           "\"12\"^^<http://www.w3.org/2001/XMLSchema#Integer>", "", "\"", "\"\"^^<>"}) {
    CAPTURE(term);
    CHECK(rdf::typedValueOf(term) == TypedValue{});
  }
  // The lexical form may contain what looks like a datatype: the last one counts.
  CHECK(rdf::typedValueOf(rdf::literalTerm("1\"^^<http://www.w3.org/2001/XMLSchema#integer>", {},
                                           "http://example.org/x"))
            .kind == Kind::None);
}

TEST_CASE("typedValueOf: xsd:integer") {
  checkInteger("12", "integer", 12);
  checkInteger("-12", "integer", -12);
  checkInteger("+1", "integer", 1);  // a leading + is valid XSD
  checkInteger("007", "integer", 7);
  checkInteger("-0", "integer", 0);
  checkInteger("0000000000000000000000000000000000000000000042", "integer", 42);
  checkInteger("9223372036854775807", "integer", std::numeric_limits<int64_t>::max());
  checkInteger("-9223372036854775808", "integer", std::numeric_limits<int64_t>::min());
  // Beyond int64: a Decimal, exact where the double is the value.
  checkNumber("9223372036854775808", "integer", Kind::Decimal, 9223372036854775808.0, true);
  checkNumber("-9223372036854775809", "integer", Kind::Decimal, -9223372036854775809.0, false);
  checkNumber("123456789012345678901234567890123456789012345", "integer", Kind::Decimal,
              1.23456789012345678901234567890123456789012345e44, false);
  for (const char* bad : {"", " 1", "1 ", "+", "-", "1.0", "1.", "1e3", "0x10", "1_000", "--1", "+-1", "١", "12a"}) {
    CAPTURE(bad);
    CHECK(isNone(bad, "integer"));
  }
}

TEST_CASE("typedValueOf: types derived from xsd:integer check their ranges") {
  checkInteger("9223372036854775807", "long", std::numeric_limits<int64_t>::max());
  CHECK(isNone("9223372036854775808", "long"));
  checkInteger("-2147483648", "int", -2147483648LL);
  CHECK(isNone("2147483648", "int"));
  checkInteger("32767", "short", 32767);
  CHECK(isNone("-32769", "short"));
  checkInteger("-128", "byte", -128);
  CHECK(isNone("128", "byte"));
  checkInteger("255", "unsignedByte", 255);
  CHECK(isNone("256", "unsignedByte"));
  CHECK(isNone("-1", "unsignedByte"));
  checkInteger("-0", "unsignedByte", 0);
  checkInteger("65535", "unsignedShort", 65535);
  CHECK(isNone("65536", "unsignedShort"));
  checkInteger("4294967295", "unsignedInt", 4294967295LL);
  CHECK(isNone("4294967296", "unsignedInt"));
  checkNumber("18446744073709551615", "unsignedLong", Kind::Decimal, 18446744073709551615.0, false);
  checkNumber("18446744073709551614", "unsignedLong", Kind::Decimal, 18446744073709551614.0, false);
  checkNumber("9223372036854775808", "unsignedLong", Kind::Decimal, 9223372036854775808.0, true);
  CHECK(isNone("18446744073709551616", "unsignedLong"));
  checkInteger("0", "nonNegativeInteger", 0);
  CHECK(isNone("-1", "nonNegativeInteger"));
  checkNumber("100000000000000000000000000000000000000000", "nonNegativeInteger", Kind::Decimal, 1e41, false);
  CHECK(isNone("-100000000000000000000000000000000000000000", "nonNegativeInteger"));
  checkInteger("1", "positiveInteger", 1);
  CHECK(isNone("0", "positiveInteger"));
  CHECK(isNone("-0", "positiveInteger"));
  checkInteger("0", "nonPositiveInteger", 0);
  CHECK(isNone("1", "nonPositiveInteger"));
  checkInteger("-1", "negativeInteger", -1);
  CHECK(isNone("0", "negativeInteger"));
  CHECK(isNone("1.0", "int"));
}

TEST_CASE("typedValueOf: xsd:decimal") {
  checkNumber("12.50", "decimal", Kind::Decimal, 12.5, true);
  checkNumber("1.000", "decimal", Kind::Decimal, 1.0, true);
  checkNumber("100", "decimal", Kind::Decimal, 100.0, true);
  checkNumber("-.5", "decimal", Kind::Decimal, -0.5, true);
  checkNumber("+3.25", "decimal", Kind::Decimal, 3.25, true);
  checkNumber("5.", "decimal", Kind::Decimal, 5.0, true);
  checkNumber("-0.0", "decimal", Kind::Decimal, -0.0, true);
  checkNumber("0.1", "decimal", Kind::Decimal, 0.1, false);
  checkNumber("0.30000000000000004", "decimal", Kind::Decimal, 0.30000000000000004, false);
  checkNumber("9007199254740993", "decimal", Kind::Decimal, 9007199254740992.0, false);  // 2^53 + 1
  checkNumber("9007199254740992.0", "decimal", Kind::Decimal, 9007199254740992.0, true);
  checkNumber("0.0000000000000000000000000000000000000000000000000000000000000000000001", "decimal",
              Kind::Decimal, 1e-70, false);
  for (const char* bad : {"", ".", "+", "-.", "1e3", " 1.0", "1.0 ", "1,5", "1..5", "INF", "NaN", "0x1"}) {
    CAPTURE(bad);
    CHECK(isNone(bad, "decimal"));
  }
}

TEST_CASE("typedValueOf: xsd:double and xsd:float") {
  const double inf = std::numeric_limits<double>::infinity();
  checkNumber("1e3", "double", Kind::Double, 1000.0, true);
  checkNumber("1E3", "double", Kind::Double, 1000.0, true);
  checkNumber("1.5e-3", "double", Kind::Double, 1.5e-3, true);
  checkNumber("-.5e+1", "double", Kind::Double, -5.0, true);
  checkNumber("1.e2", "double", Kind::Double, 100.0, true);
  checkNumber("0.1", "double", Kind::Double, 0.1, true);
  checkNumber("+12", "double", Kind::Double, 12.0, true);
  checkNumber("-0", "double", Kind::Double, -0.0, true);
  checkNumber("INF", "double", Kind::Double, inf, true);
  checkNumber("+INF", "double", Kind::Double, inf, true);
  checkNumber("-INF", "double", Kind::Double, -inf, true);
  checkNumber("NaN", "double", Kind::Double, std::nan(""), true);
  checkNumber("1e400", "double", Kind::Double, inf, true);
  checkNumber("-1e400", "double", Kind::Double, -inf, true);
  checkNumber("-1e-400", "double", Kind::Double, -0.0, true);
  checkNumber("4.9e-324", "double", Kind::Double, 4.9e-324, true);
  checkNumber("0e99999999999999999999", "double", Kind::Double, 0.0, true);
  for (const char* bad : {"", "e3", "1e", "1e+", "1e3.5", "inf", "Infinity", "nan", "-NaN", "+NaN", " 1", "1 ",
                          "1.5f", "0x1p3", ".", "1,5"}) {
    CAPTURE(bad);
    CHECK(isNone(bad, "double"));
    CHECK(isNone(bad, "float"));
  }
  // Floats are rounded to float, then widened.
  checkNumber("0.1", "float", Kind::Double, static_cast<double>(0.1f), true);
  checkNumber("16777217", "float", Kind::Double, 16777216.0, true);
  checkNumber("3.5e38", "float", Kind::Double, inf, true);
  checkNumber("-INF", "float", Kind::Double, -inf, true);
}

TEST_CASE("typedValueOf: xsd:boolean") {
  for (auto [lexical, value] : {std::pair{"true", 1}, {"false", 0}, {"1", 1}, {"0", 0}}) {
    TypedValue v = typed(lexical, "boolean");
    CHECK(v.kind == Kind::Boolean);
    CHECK(v.integer == value);
    CHECK(v.exact());
  }
  for (const char* bad : {"", "TRUE", "True", "yes", " true", "true ", "01", "2", "-0"}) {
    CAPTURE(bad);
    CHECK(isNone(bad, "boolean"));
  }
}

TEST_CASE("typedValueOf: xsd:dateTime, xsd:dateTimeStamp and xsd:date") {
  checkDateTime("1970-01-01T00:00:00Z", "dateTime", 0, 0);
  checkDateTime("1970-01-01T00:00:00", "dateTime", 0, std::nullopt);
  checkDateTime("1970-01-01T01:00:00+01:00", "dateTime", 0, 60);
  checkDateTime("1969-12-31T23:00:00-01:00", "dateTime", 0, -60);
  checkDateTime("1970-01-01T00:00:00-00:00", "dateTime", 0, 0);
  checkDateTime("2000-01-01T05:30:00+05:30", "dateTime", k2000, 330);
  checkDateTime("2000-01-01T00:00:00+14:00", "dateTime", k2000 - 14 * 3600 * kSecond, 840);
  checkDateTime("2000-01-01T00:00:00-14:00", "dateTime", k2000 + 14 * 3600 * kSecond, -840);
  checkDateTime("1999-12-31T24:00:00Z", "dateTime", k2000, 0);
  checkDateTime("2000-01-01T00:00:00.5Z", "dateTime", k2000 + kSecond / 2, 0);
  checkDateTime("2000-01-01T00:00:00.123456Z", "dateTime", k2000 + 123456, 0);
  checkDateTime("2000-01-01T00:00:00.1234560000Z", "dateTime", k2000 + 123456, 0);
  checkDateTime("2000-01-01T00:00:00.1234567Z", "dateTime", k2000 + 123456, 0, false);
  checkDateTime("2000-02-29T12:00:00", "dateTime", k2000 + (59 * 86400 + 12 * 3600) * kSecond, std::nullopt);
  checkDateTime("1969-12-31T23:59:59.999999", "dateTime", -1, std::nullopt);
  checkDateTime("0000-01-01T00:00:00Z", "dateTime", int64_t{-62167219200} * kSecond, 0);
  checkDateTime("-0001-01-01T00:00:00Z", "dateTime", int64_t{-62198755200} * kSecond, 0);
  checkDateTime("10000-01-01T00:00:00Z", "dateTime", int64_t{253402300800} * kSecond, 0);
  checkDateTime("2000-01-01T00:00:00Z", "dateTimeStamp", k2000, 0);
  checkDateTime("2000-01-01", "date", k2000, std::nullopt);
  checkDateTime("2000-01-01Z", "date", k2000, 0);
  checkDateTime("2000-01-01+02:00", "date", k2000 - 2 * 3600 * kSecond, 120);
  checkDateTime("2000-02-29", "date", k2000 + 59 * 86400 * kSecond, std::nullopt);
  checkDateTime("1600-02-29", "date", int64_t{-11670998400} * kSecond, std::nullopt);
  checkDateTime("-1000-03-01", "date", int64_t{-93719030400} * kSecond, std::nullopt);

  for (const char* bad : {"", "2000-01-01", "2000-01-01T00:00", "2000-01-01 00:00:00", "2000-01-01T00:00:00 ",
                          " 2000-01-01T00:00:00", "2001-02-29T00:00:00", "1900-02-29T00:00:00",
                          "2000-04-31T00:00:00", "2000-13-01T00:00:00", "2000-00-01T00:00:00",
                          "2000-01-00T00:00:00", "2000-01-01T24:00:01", "2000-01-01T24:00:00.1",
                          "2000-01-01T25:00:00", "2000-01-01T00:60:00", "2000-01-01T00:00:60",
                          "2000-01-01T00:00:00+14:01", "2000-01-01T00:00:00+15:00", "2000-01-01T00:00:00+01:60",
                          "2000-01-01T00:00:00+0100", "2000-01-01T00:00:00+1:00", "2000-01-01T00:00:00z",
                          "2000-01-01T00:00:00ZZ", "2000-01-01T00:00:00.", "2000-01-01T00:00:00.Z",
                          "200-01-01T00:00:00", "02000-01-01T00:00:00", "2000-1-01T00:00:00",
                          "2000-01-1T00:00:00", "2000-01-01T0:00:00", "+2000-01-01T00:00:00",
                          "--2000-01-01T00:00:00", "2000-01-01t00:00:00",
                          "1000000000-01-01T00:00:00Z",  // valid, but beyond int64 microseconds
                          "300000-01-01T00:00:00Z"}) {
    CAPTURE(bad);
    CHECK(isNone(bad, "dateTime"));
  }
  CHECK(isNone("2000-01-01T00:00:00", "dateTimeStamp"));  // requires a timezone
  for (const char* bad : {"", "2000-01-01T00:00:00", "2000-02-30", "2000-01-01 ", "2000-01-01+1:00", "20000101",
                          "2000-01-01-15:00"}) {
    CAPTURE(bad);
    CHECK(isNone(bad, "date"));
  }
}

TEST_CASE("the loader writes a value column that matches the dictionary, also after an incremental load") {
  TempDir dir;
  writeFile(dir / "a.nt", kSmallGraph);
  writeFile(dir / "b.nt",
            "<http://e/b> <http://e/price> \"499.99\"^^<http://www.w3.org/2001/XMLSchema#decimal> .\n"
            "<http://e/b> <http://e/price> \"500\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
            "<http://e/b> <http://e/when> \"1999-12-31T23:00:00Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime> .\n");
  const auto db = dir / "db";
  Database::load(db, {(dir / "a.nt").string()});
  std::vector<TypedValue> first;
  {
    GraphStore store(db);
    CHECK(checkColumnMatchesDictionary(store) == 10);  // " 1", "300" (unsignedByte), "2000-02-30" are ill-typed
    for (uint32_t v = 0; v < store.values()->size(); ++v) first.push_back(store.values()->at(v));
    auto price = valueOfTerm(store, "\"500\"^^<http://www.w3.org/2001/XMLSchema#integer>");
    REQUIRE(price);
    CHECK(price->kind == Kind::Integer);
    CHECK(price->integer == 500);
    auto plain = valueOfTerm(store, "\"500\"");
    REQUIRE(plain);
    CHECK(plain->kind == Kind::None);
    auto when = valueOfTerm(store, "\"2000-01-01T01:00:00+01:00\"^^<http://www.w3.org/2001/XMLSchema#dateTime>");
    REQUIRE(when);
    CHECK(when->micros == k2000);
  }
  Database::load(db, {(dir / "b.nt").string()});
  GraphStore store(db);
  CHECK(store.generation().number == 2);
  CHECK(checkColumnMatchesDictionary(store) == 12);
  REQUIRE(store.values()->size() == first.size() + 3);  // <http://e/b>, 499.99, 1999-12-31T23:00:00Z
  for (uint32_t v = 0; v < first.size(); ++v) CHECK(store.values()->at(v) == first[v]);  // ids are stable
  auto earlier = valueOfTerm(store, "\"1999-12-31T23:00:00Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime>");
  REQUIRE(earlier);
  CHECK(earlier->micros == k2000 - 3600 * kSecond);
}

TEST_CASE("the value column of the WatDiv SF1 sample matches its dictionary") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  CHECK(store.values()->size() > 0);
  checkColumnMatchesDictionary(store);  // its literals are all plain strings: no typed values
  auto userId = valueOfTerm(store, "\"1852793\"");
  REQUIRE(userId);
  CHECK(userId->kind == Kind::None);
}

TEST_CASE("a corrupted, truncated or missing value file") {
  TempDir dir;
  writeFile(dir / "a.nt", kSmallGraph);
  Database::load(dir.path(), {(dir / "a.nt").string()});
  auto generation = currentGeneration(dir.path());
  REQUIRE(generation);
  const auto file = generation->dir / kValuesFile;
  GraphStore(dir.path()).verify();

  SUBCASE("a flipped byte in the entries fails the first read of its block, and verify()") {
    flipBits(file, sizeof(ValueFileHeader) + 3 * sizeof(TypedValue) + 8);
    GraphStore store(dir.path());  // opening checks only the header
    const uint32_t count = store.values()->size();
    const std::string expected = "database corrupted: " + file.string() + ", offset 64: block 0 (ids 0 to " +
                                 std::to_string(count - 1) + "): checksum mismatch";
    CHECK_THROWS_WITH_AS(store.values()->at(count - 1), expected.c_str(), StorageError);
    CHECK_THROWS_WITH_AS(store.verify(), expected.c_str(), StorageError);
    CHECK_THROWS_WITH_AS(Database(dir.path()).verify(), expected.c_str(), StorageError);
    const char* filter = "SELECT ?o WHERE { <http://e/a> <http://e/price> ?o FILTER(?o > 100) }";
    CHECK_THROWS_WITH_AS(Database(dir.path()).query(filter), expected.c_str(), StorageError);
  }
  SUBCASE("a flipped byte in the header fails at open") {
    flipBits(file, 16);
    CHECK_THROWS_WITH_AS(GraphStore{dir.path()}, doctest::Contains("header checksum mismatch"), StorageError);
  }
  SUBCASE("a truncated file fails at open") {
    makeWritable(file);
    std::filesystem::resize_file(file, std::filesystem::file_size(file) - sizeof(TypedValue));
    CHECK_THROWS_WITH_AS(GraphStore{dir.path()}, doctest::Contains("truncated"), StorageError);
    std::filesystem::resize_file(file, 10);
    CHECK_THROWS_WITH_AS(GraphStore{dir.path()}, doctest::Contains("shorter than its header"), StorageError);
  }
  SUBCASE("a database without one (written by an earlier version) opens without values") {
    std::filesystem::remove(file);
    GraphStore store(dir.path());
    CHECK(store.values() == nullptr);
    store.verify();
    CHECK(Database(dir.path()).query("SELECT ?o WHERE { <http://e/a> <http://e/flag> ?o }").rowCount() == 1);
  }
}
