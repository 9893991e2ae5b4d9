#include "engine/expr/datetime.h"

#include <charconv>

namespace gsparql::engine::expr {
namespace {

constexpr int kMaxTzMinutes = 14 * 60;

// Reads exactly `width` digits (or at least `width` when `atLeast`) at s[pos].
std::optional<long long> readNumber(std::string_view s, size_t& pos, size_t width, bool atLeast = false) {
  size_t end = pos;
  while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
  size_t n = end - pos;
  if (n < width || (!atLeast && n != width) || n > 18) return std::nullopt;
  long long v = 0;
  std::from_chars(s.data() + pos, s.data() + end, v);
  pos = end;
  return v;
}

bool expect(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

bool isLeap(long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(long long y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && isLeap(y) ? 29 : days[m - 1];
}

bool parseDate(std::string_view s, size_t& pos, DateTime& out) {
  bool negative = expect(s, pos, '-');
  auto year = readNumber(s, pos, 4, true);
  if (!year || !expect(s, pos, '-')) return false;
  auto month = readNumber(s, pos, 2);
  if (!month || !expect(s, pos, '-')) return false;
  auto day = readNumber(s, pos, 2);
  if (!day || *month < 1 || *month > 12) return false;
  out.year = negative ? -*year : *year;
  out.month = static_cast<int>(*month);
  out.day = static_cast<int>(*day);
  return out.day >= 1 && out.day <= daysInMonth(out.year, out.month);
}

bool parseTime(std::string_view s, size_t& pos, DateTime& out) {
  auto hour = readNumber(s, pos, 2);
  if (!hour || !expect(s, pos, ':')) return false;
  auto minute = readNumber(s, pos, 2);
  if (!minute || !expect(s, pos, ':')) return false;
  size_t start = pos;
  if (!readNumber(s, pos, 2)) return false;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    if (!readNumber(s, pos, 1, true)) return false;
  }
  auto seconds = parseLexical(NumType::Decimal, s.substr(start, pos - start));
  if (!seconds) return false;
  out.hour = static_cast<int>(*hour);
  out.minute = static_cast<int>(*minute);
  out.seconds = seconds->exact;
  bool midnight24 = out.hour == 24 && out.minute == 0 && out.seconds.mantissa == 0;
  return (out.hour < 24 || midnight24) && out.minute < 60 &&
         compareNumbers(Number{NumType::Decimal, out.seconds, 0.0}, Number::integer(60)) < 0;
}

bool parseTimezone(std::string_view s, size_t& pos, DateTime& out) {
  if (pos == s.size()) return true;
  out.tzLexical = s.substr(pos);
  if (expect(s, pos, 'Z')) {
    out.tzMinutes = 0;
    return pos == s.size();
  }
  int sign = s[pos] == '-' ? -1 : 1;
  if (!expect(s, pos, '-') && !expect(s, pos, '+')) return false;
  auto hours = readNumber(s, pos, 2);
  if (!hours || !expect(s, pos, ':')) return false;
  auto minutes = readNumber(s, pos, 2);
  if (!minutes || *minutes >= 60) return false;
  out.tzMinutes = sign * static_cast<int>(*hours * 60 + *minutes);
  return pos == s.size() && *hours * 60 + *minutes <= kMaxTzMinutes;
}

std::optional<DateTime> parseDateLexical(std::string_view s, bool withTime) {
  DateTime out;
  out.hasTime = withTime;
  size_t pos = 0;
  if (!parseDate(s, pos, out)) return std::nullopt;
  if (withTime && !(expect(s, pos, 'T') && parseTime(s, pos, out))) return std::nullopt;
  if (!parseTimezone(s, pos, out)) return std::nullopt;
  return out;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
long long daysFromCivil(long long y, int m, int d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  long long yoe = y - era * 400;
  long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Seconds since the epoch, reading a missing timezone as `assumedTz`.
Number instant(const DateTime& v, int assumedTz) {
  long long minutes = (daysFromCivil(v.year, v.month, v.day) * 24 + v.hour) * 60 + v.minute -
                      v.tzMinutes.value_or(assumedTz);
  return *arithmetic('+', Number::integer(Int128(minutes) * 60), Number{NumType::Decimal, v.seconds, 0.0});
}

std::string twoDigits(long long v) { return (v < 10 ? "0" : "") + std::to_string(v); }

// Seconds as a dateTime or duration writes them: whole seconds without a
// fraction ("13"), others without trailing zeros ("13.815").
std::string secondsLexical(const Decimal& seconds) {
  return stringLexical(Number{NumType::Decimal, seconds, 0.0});
}

std::string timezoneDuration(int tz) {
  if (tz == 0) return "PT0S";
  std::string out = tz < 0 ? "-PT" : "PT";
  int a = tz < 0 ? -tz : tz;
  if (a / 60) out += std::to_string(a / 60) + "H";
  if (a % 60) out += std::to_string(a % 60) + "M";
  return out;
}

}  // namespace

std::optional<DateTime> parseDateTime(const TermValue& term) {
  if (!term.isLiteral()) return std::nullopt;
  std::string_view local = xsdLocal(term.datatype);
  if (local == "dateTime" || local == "dateTimeStamp") return parseDateLexical(term.value, true);
  if (local == "date") return parseDateLexical(term.value, false);
  return std::nullopt;
}

std::optional<DateTime> parseDateTimeLexical(std::string_view lexical) { return parseDateLexical(lexical, true); }

std::string dateTimeLexical(const DateTime& v) {
  std::string year = std::to_string(v.year < 0 ? -v.year : v.year);
  if (year.size() < 4) year.insert(0, 4 - year.size(), '0');
  std::string out = (v.year < 0 ? "-" : "") + year + "-" + twoDigits(v.month) + "-" + twoDigits(v.day);
  if (v.hasTime) {
    std::string seconds = secondsLexical(v.seconds);
    if (seconds.find('.') == 1 || seconds.size() == 1) seconds.insert(0, "0");
    out += "T" + twoDigits(v.hour) + ":" + twoDigits(v.minute) + ":" + seconds;
  }
  return out + v.tzLexical;
}

std::optional<int> compareDateTimes(const DateTime& a, const DateTime& b) {
  if (a.tzMinutes.has_value() == b.tzMinutes.has_value()) return compareNumbers(instant(a, 0), instant(b, 0));
  // XSD 3.2.7.4: the missing timezone may be anything within +-14:00.
  auto low = compareNumbers(instant(a, kMaxTzMinutes), instant(b, kMaxTzMinutes));
  auto high = compareNumbers(instant(a, -kMaxTzMinutes), instant(b, -kMaxTzMinutes));
  if (low == high) return low;
  return std::nullopt;
}

int orderDateTimes(const DateTime& a, const DateTime& b) {
  return compareNumbers(instant(a, 0), instant(b, 0)).value_or(0);  // exact decimals: never nullopt
}

std::optional<std::string> dateTimeAccessor(std::string_view name, const DateTime& v) {
  if (name == "YEAR") return integerTerm(v.year);
  if (name == "MONTH") return integerTerm(v.month);
  if (name == "DAY") return integerTerm(v.day);
  if (name == "TZ") return stringTerm(v.tzLexical);
  if (name == "TIMEZONE") {
    if (!v.tzMinutes) return std::nullopt;
    return rdf::literalTerm(timezoneDuration(*v.tzMinutes), {}, xsd("dayTimeDuration"));
  }
  if (!v.hasTime) return std::nullopt;
  if (name == "HOURS") return integerTerm(v.hour);
  if (name == "MINUTES") return integerTerm(v.minute);
  if (name == "SECONDS") return rdf::literalTerm(secondsLexical(v.seconds), {}, xsd("decimal"));
  return std::nullopt;
}

}  // namespace gsparql::engine::expr
