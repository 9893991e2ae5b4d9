#pragma once
// xsd:dateTime and xsd:date values: the accessor functions (YEAR ... TZ,
// section 17.4.5) and comparison.
#include <optional>
#include <string>

#include "engine/expr/numeric.h"
#include "engine/expr/terms.h"

namespace gsparql::engine::expr {

struct DateTime {
  bool hasTime = true;  // false for xsd:date
  long long year = 0;
  int month = 1, day = 1, hour = 0, minute = 0;
  Decimal seconds;                 // with its fraction
  std::optional<int> tzMinutes;    // offset from UTC, none when absent
  std::string tzLexical;           // the timezone as written ("Z", "+00:00"), TZ's result
};

// nullopt unless the term is an xsd:dateTime or xsd:date with a valid lexical form.
std::optional<DateTime> parseDateTime(const TermValue& term);
// The lexical form read as an xsd:dateTime (casts from strings).
std::optional<DateTime> parseDateTimeLexical(std::string_view lexical);
std::string dateTimeLexical(const DateTime& value);

// Both of one kind (dateTime or date). nullopt when one has a timezone and the
// other not and the order depends on the missing one (XSD's indeterminate).
std::optional<int> compareDateTimes(const DateTime& a, const DateTime& b);
// A total order for ORDER BY that agrees with compareDateTimes wherever that
// decides: a missing timezone is read as UTC. (Where compareDateTimes
// decides, the order is the same for every timezone within +-14:00, UTC
// included.)
int orderDateTimes(const DateTime& a, const DateTime& b);

// The accessor named by the SPARQL function ("YEAR", ..., "TZ"); nullopt for
// an error (HOURS of a date, TIMEZONE without a timezone).
std::optional<std::string> dateTimeAccessor(std::string_view name, const DateTime& value);

}  // namespace gsparql::engine::expr
