#include "server/content_negotiation.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "rdf/rdf_formats.h"
#include "server/http_error.h"

namespace gsparql::server {
namespace {

struct Offer {
  ResultFormat format;
  std::string_view mediaType;  // the first of a format's media types is the one answered
  // Appended to the Content-Type: CSV's and TSV's registrations default to
  // US-ASCII (RFC 4180 3), and the results are UTF-8. The other formats say
  // it themselves (XML) or are UTF-8 by definition (JSON, Turtle, N-Triples).
  const char* parameters = "";
};

// In the server's order of preference; a format may be asked for by any of
// its media types (application/json and text/plain are common aliases).
constexpr Offer kSolutionOffers[] = {
    {ResultFormat::Json, "application/sparql-results+json"}, {ResultFormat::Json, "application/json"},
    {ResultFormat::Xml, "application/sparql-results+xml"},   {ResultFormat::Xml, "application/xml"},
    {ResultFormat::Xml, "text/xml"},                         {ResultFormat::Csv, "text/csv", "; charset=utf-8"},
    {ResultFormat::Tsv, "text/tab-separated-values", "; charset=utf-8"},
};

// Graphs: every media type of every syntax the graph writers write, in the
// order of rdf/rdf_formats.h's table (Turtle first).
const std::vector<Offer>& graphOffers() {
  static const std::vector<Offer> offers = [] {
    std::vector<Offer> all;
    for (const rdf::RdfSyntax& syntax : rdf::rdfSyntaxes()) {
      if (!syntax.writer) continue;
      for (std::string_view types = syntax.mediaTypes; !types.empty();) {
        const size_t space = std::min(types.find(' '), types.size());
        all.push_back({*syntax.writer, types.substr(0, space)});
        types.remove_prefix(std::min(space + 1, types.size()));
      }
    }
    return all;
  }();
  return offers;
}

// "a, b, c": the main media type of each format on offer.
std::string offeredTypes(std::span<const Offer> offers) {
  std::string list;
  std::vector<ResultFormat> listed;
  for (const Offer& offer : offers) {
    if (std::find(listed.begin(), listed.end(), offer.format) != listed.end()) continue;
    listed.push_back(offer.format);
    if (!list.empty()) list += ", ";
    list += offer.mediaType;
  }
  return list;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::span<const Offer> offersFor(bool graph) {
  return graph ? std::span<const Offer>(graphOffers()) : std::span<const Offer>(kSolutionOffers);
}

// The main media type of `format` (the first offer that names it).
const Offer* mainOffer(ResultFormat format) {
  for (bool graph : {false, true}) {
    for (const Offer& offer : offersFor(graph)) {
      if (offer.format == format) return &offer;
    }
  }
  return nullptr;
}

// "ttl" -> "text/turtle"; a media type stays as it is.
std::string mediaTypeOfName(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const auto format = resultFormatFromName(name);
  const Offer* offer = format ? mainOffer(*format) : nullptr;
  if (offer == nullptr) {
    throw HttpError(406, "unknown format '" + name + "' (json, xml, csv, tsv, nt, ttl, nq, trig, rdfxml, jsonld or a media type)");
  }
  return std::string(offer->mediaType);
}

const char* formName(QueryForm form) {
  switch (form) {
    case QueryForm::Select: return "SELECT";
    case QueryForm::Ask: return "ASK";
    case QueryForm::Construct: return "CONSTRUCT";
    case QueryForm::Describe: return "DESCRIBE";
  }
  return "?";
}

}  // namespace

ContentNegotiation::ContentNegotiation(const std::string& accept, const std::optional<std::string>& formatParameter)
    : asked_(formatParameter ? mediaTypeOfName(*formatParameter) : accept) {
  size_t start = 0;
  const std::string header = trim(asked_).empty() ? "*/*" : asked_;
  while (start <= header.size()) {
    const size_t comma = std::min(header.find(',', start), header.size());
    const std::string item = header.substr(start, comma - start);
    start = comma + 1;
    const size_t semicolon = std::min(item.find(';'), item.size());
    const std::string media = lower(trim(item.substr(0, semicolon)));
    const size_t slash = media.find('/');
    if (slash == std::string::npos) continue;  // not a media range: ignored, as RFC 9110 lets us
    Range range{media.substr(0, slash), media.substr(slash + 1), 1};
    for (size_t p = semicolon; p < item.size();) {
      const size_t next = std::min(item.find(';', p + 1), item.size());
      const std::string parameter = lower(trim(item.substr(p + 1, next - p - 1)));
      if (parameter.rfind("q=", 0) == 0) range.q = std::clamp(std::strtod(parameter.c_str() + 2, nullptr), 0.0, 1.0);
      p = next;
    }
    ranges_.push_back(range);
  }
}

// The q of the most specific range that matches (RFC 9110 12.5.1): an exact
// type beats type/*, which beats */*.
double ContentNegotiation::qualityOf(const std::string& mediaType) const {
  const size_t slash = mediaType.find('/');
  const std::string type = mediaType.substr(0, slash);
  const std::string subtype = mediaType.substr(slash + 1);
  int bestSpecificity = -1;
  double q = 0;
  for (const Range& range : ranges_) {
    int specificity = -1;
    if (range.type == type && range.subtype == subtype) specificity = 2;
    else if (range.type == type && range.subtype == "*") specificity = 1;
    else if (range.type == "*" && range.subtype == "*") specificity = 0;
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      q = range.q;
    }
  }
  return q;
}

NegotiatedFormat ContentNegotiation::choose(QueryForm form) const {
  const bool graph = form == QueryForm::Construct || form == QueryForm::Describe;
  const Offer* best = nullptr;
  double bestQ = 0;
  for (const Offer& offer : offersFor(graph)) {
    const double q = qualityOf(std::string(offer.mediaType));
    if (q > bestQ) {
      best = &offer;
      bestQ = q;
    }
  }
  if (best == nullptr) {
    throw HttpError(406, std::string("no acceptable format for a ") + formName(form) + " result (asked for '" + asked_ +
                             "'; offered: " + offeredTypes(offersFor(graph)) + ")");
  }
  // The media type that matched: what the client asked for by name.
  return {best->format, std::string(best->mediaType) + best->parameters};
}

}  // namespace gsparql::server
