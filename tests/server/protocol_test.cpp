// The parts of the server that need no network: query strings and forms,
// reading SPARQL Protocol requests, and content negotiation.
#include <doctest/doctest.h>

#include "server/content_negotiation.h"
#include "server/form_urlencoded.h"
#include "server/http_error.h"
#include "server/protocol_request.h"

using namespace gsparql;
using namespace gsparql::server;

namespace {

int statusOf(const HttpInput& input) {
  try {
    parseProtocolRequest(input);
  } catch (const HttpError& e) {
    return e.status();
  }
  return 200;
}

ResultFormat negotiated(const std::string& accept, QueryForm form = QueryForm::Select) {
  return ContentNegotiation(accept, std::nullopt).choose(form).format;
}

}  // namespace

TEST_CASE("query strings and forms are read as the URL Standard reads them, refusing nothing") {
  using Fields = std::multimap<std::string, std::string>;
  CHECK(formFields("query=ASK%20%7B?s%20?p%20?o%7D&x=1") == Fields{{"query", "ASK {?s ?p ?o}"}, {"x", "1"}});
  CHECK(formFields("a=b+c&a=%2B&empty=&bare&&=v") == Fields{{"a", "b c"}, {"a", "+"}, {"empty", ""}, {"bare", ""}, {"", "v"}});
  CHECK(formFields("g=http://e/g?x=1") == Fields{{"g", "http://e/g?x=1"}});  // '?' and '=' inside a value
  CHECK(formFields("q={raw}%zz%4") == Fields{{"q", "{raw}%zz%4"}});  // stray '%' kept
  CHECK(formFields("k=%C3%A9%00") == Fields{{"k", std::string("\xC3\xA9\0", 3)}});
  CHECK(formFields("").empty());
  CHECK(percentDecoded("/a%20b+c%2F") == "/a b+c/");
}

TEST_CASE("a protocol request is read from GET, a form POST and a direct POST") {
  auto get = parseProtocolRequest({"GET", "", "", {{"query", "ASK {}"}, {"timeout", "2.5"}, {"explain", "true"}}});
  CHECK(get.kind == ProtocolRequest::Kind::Query);
  CHECK(get.text == "ASK {}");
  CHECK(get.timeout == std::chrono::milliseconds(2500));
  CHECK(get.explain);
  auto form = parseProtocolRequest({"POST", "application/x-www-form-urlencoded", "", {{"update", "CLEAR ALL"}}});
  CHECK(form.kind == ProtocolRequest::Kind::Update);
  auto direct = parseProtocolRequest({"POST", "application/sparql-query", "ASK {}", {{"format", "xml"}}});
  CHECK(direct.text == "ASK {}");
  CHECK(direct.format == "xml");
  CHECK(parseProtocolRequest({"POST", "application/sparql-update", "CLEAR ALL", {}}).kind ==
        ProtocolRequest::Kind::Update);
}

TEST_CASE("malformed protocol requests get 400, 405 and 415") {
  CHECK(statusOf({"GET", "", "", {}}) == 400);                                            // no query
  CHECK(statusOf({"GET", "", "", {{"query", "ASK {}"}, {"query", "ASK {}"}}}) == 400);   // two
  CHECK(statusOf({"GET", "", "", {{"update", "CLEAR ALL"}}}) == 400);                     // update by GET
  CHECK(statusOf({"POST", "application/x-www-form-urlencoded", "", {{"query", "ASK {}"}, {"update", "CLEAR ALL"}}}) == 400);
  CHECK(statusOf({"POST", "application/sparql-query", "ASK {}", {{"query", "ASK {}"}}}) == 400);
  CHECK(statusOf({"GET", "", "", {{"query", "ASK {}"}, {"timeout", "soon"}}}) == 400);
  CHECK(statusOf({"GET", "", "", {{"query", "ASK {}"}, {"explain", "maybe"}}}) == 400);
  CHECK(statusOf({"PUT", "", "", {{"query", "ASK {}"}}}) == 405);
  CHECK(statusOf({"POST", "text/plain", "ASK {}", {}}) == 415);
}

TEST_CASE("the dataset parameters name a query's or an update's dataset, those of the other kind are refused") {
  const auto query = parseProtocolRequest({"GET", "", "", {{"query", "ASK {}"}, {"default-graph-uri", "http://e/g"},
                                                           {"named-graph-uri", "http://e/h"}, {"named-graph-uri", "http://e/i"}}});
  CHECK(query.defaultGraphs == std::vector<std::string>{"http://e/g"});
  CHECK(query.namedGraphs == std::vector<std::string>{"http://e/h", "http://e/i"});
  const auto update =
      parseProtocolRequest({"POST", "application/sparql-update", "CLEAR ALL", {{"using-named-graph-uri", "http://e/g"}}});
  CHECK(update.defaultGraphs.empty());
  CHECK(update.namedGraphs == std::vector<std::string>{"http://e/g"});
  CHECK(statusOf({"GET", "", "", {{"query", "ASK {}"}, {"using-graph-uri", "http://e/g"}}}) == 400);
  CHECK(statusOf({"POST", "application/sparql-update", "CLEAR ALL", {{"default-graph-uri", "http://e/g"}}}) == 400);
  // Empty values (as some forms send) name nothing.
  CHECK(parseProtocolRequest({"GET", "", "", {{"query", "ASK {}"}, {"default-graph-uri", ""}}}).defaultGraphs.empty());
}

TEST_CASE("content negotiation follows q-values, specificity and the server's order") {
  CHECK(negotiated("") == ResultFormat::Json);
  CHECK(negotiated("*/*") == ResultFormat::Json);
  CHECK(negotiated("text/csv;q=0.5, application/sparql-results+xml;q=0.9") == ResultFormat::Xml);
  CHECK(negotiated("*/*;q=0.1, text/tab-separated-values") == ResultFormat::Tsv);
  CHECK(negotiated("text/*;q=0.2, text/csv;q=0.3, */*;q=0.1") == ResultFormat::Csv);
  CHECK(negotiated("application/json") == ResultFormat::Json);
  CHECK(negotiated("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8") == ResultFormat::Xml);
  // q=0: not acceptable; the same format under another name is.
  const NegotiatedFormat refused = ContentNegotiation("application/sparql-results+json;q=0, */*", std::nullopt)
                                       .choose(QueryForm::Select);
  CHECK(refused.format == ResultFormat::Json);
  CHECK(refused.mediaType == "application/json");
  CHECK(negotiated("application/sparql-results+json;q=0, application/json;q=0, */*") == ResultFormat::Xml);
  CHECK(negotiated("*/*", QueryForm::Construct) == ResultFormat::Turtle);
  CHECK(negotiated("text/plain", QueryForm::Describe) == ResultFormat::NTriples);
  CHECK(negotiated("application/n-triples, text/turtle;q=0.5", QueryForm::Construct) == ResultFormat::NTriples);
  const NegotiatedFormat json = ContentNegotiation("application/json", std::nullopt).choose(QueryForm::Ask);
  CHECK(json.mediaType == "application/json");
  CHECK(ContentNegotiation("*/*", std::nullopt).choose(QueryForm::Ask).mediaType == "application/sparql-results+json");
  // CSV's and TSV's media types default to US-ASCII: the charset is said.
  CHECK(ContentNegotiation("text/csv", std::nullopt).choose(QueryForm::Select).mediaType == "text/csv; charset=utf-8");
  CHECK(ContentNegotiation("", std::string("tsv")).choose(QueryForm::Ask).mediaType ==
        "text/tab-separated-values; charset=utf-8");
}

TEST_CASE("format= overrides Accept, and nothing acceptable is 406") {
  CHECK(ContentNegotiation("application/json", std::string("csv")).choose(QueryForm::Select).format == ResultFormat::Csv);
  CHECK(ContentNegotiation("", std::string("text/turtle")).choose(QueryForm::Construct).format == ResultFormat::Turtle);
  auto status = [](const std::string& accept, std::optional<std::string> format, QueryForm form) {
    try {
      ContentNegotiation(accept, format).choose(form);
    } catch (const HttpError& e) {
      return e.status();
    }
    return 200;
  };
  CHECK(status("image/png", std::nullopt, QueryForm::Select) == 406);
  CHECK(status("text/turtle", std::nullopt, QueryForm::Select) == 406);
  CHECK(status("", std::string("nt"), QueryForm::Ask) == 406);
  CHECK(status("", std::string("json"), QueryForm::Construct) == 406);
  CHECK(status("", std::string("yaml"), QueryForm::Select) == 406);
}

TEST_CASE("graphs are negotiated in every syntax the writers write, solutions never in one") {
  CHECK(negotiated("application/rdf+xml", QueryForm::Construct) == ResultFormat::RdfXml);
  CHECK(negotiated("application/ld+json", QueryForm::Describe) == ResultFormat::JsonLd);
  CHECK(negotiated("application/n-quads", QueryForm::Construct) == ResultFormat::NQuads);
  CHECK(negotiated("text/x-nquads", QueryForm::Describe) == ResultFormat::NQuads);
  CHECK(negotiated("application/trig", QueryForm::Construct) == ResultFormat::TriG);
  CHECK(negotiated("application/rdf+xml;q=0.5, application/trig", QueryForm::Construct) == ResultFormat::TriG);
  CHECK(negotiated("application/*", QueryForm::Construct) == ResultFormat::Turtle);  // application/x-turtle
  const NegotiatedFormat xml = ContentNegotiation("", std::string("rdfxml")).choose(QueryForm::Construct);
  CHECK(xml.format == ResultFormat::RdfXml);
  CHECK(xml.mediaType == "application/rdf+xml");
  CHECK(ContentNegotiation("", std::string("trig")).choose(QueryForm::Construct).mediaType == "application/trig");
  CHECK(ContentNegotiation("", std::string("nq")).choose(QueryForm::Construct).mediaType == "application/n-quads");
  for (const char* graphType : {"application/rdf+xml", "application/n-quads", "application/trig"}) {
    CAPTURE(graphType);
    try {
      ContentNegotiation(graphType, std::nullopt).choose(QueryForm::Select);
      FAIL("a graph syntax for solutions");
    } catch (const HttpError& e) {
      CHECK(e.status() == 406);
    }
  }
  // The 406 of a graph names every syntax on offer.
  try {
    ContentNegotiation("image/png", std::nullopt).choose(QueryForm::Construct);
    FAIL("image/png for a graph");
  } catch (const HttpError& e) {
    CHECK(e.status() == 406);
    CHECK(std::string(e.what()).find("text/turtle, application/n-triples, application/n-quads, application/trig, "
                                     "application/rdf+xml") != std::string::npos);
  }
}
