#include "manifest.h"

#include <set>

#include "loaders/rdf_reader.h"

namespace gsparql::conformance {

std::string iriTerm(const std::string& iri) { return "<" + iri + ">"; }

RdfGraph RdfGraph::read(const std::filesystem::path& turtleFile) {
  RdfGraph g;
  readRdfFile(turtleFile, RdfFormat::Turtle, [&](const RdfStatementView& s) {
    std::string subject(s.subject);
    auto [it, inserted] = g.bySubject_.try_emplace(subject);
    if (inserted) g.subjectOrder_.push_back(subject);
    it->second.emplace(std::string(s.predicate), std::string(s.object));
  });
  return g;
}

std::vector<std::string> RdfGraph::objects(const std::string& subject, const std::string& predicate) const {
  std::vector<std::string> out;
  auto it = bySubject_.find(subject);
  if (it == bySubject_.end()) return out;
  auto [b, e] = it->second.equal_range(predicate);
  for (auto i = b; i != e; ++i) out.push_back(i->second);
  return out;
}

std::optional<std::string> RdfGraph::object(const std::string& subject, const std::string& predicate) const {
  auto all = objects(subject, predicate);
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::vector<std::string> RdfGraph::subjects(const std::string& predicate, const std::string& object) const {
  std::vector<std::string> out;
  for (const auto& s : subjectOrder_) {
    for (const auto& o : objects(s, predicate)) {
      if (o == object) {
        out.push_back(s);
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> RdfGraph::list(const std::string& head) const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::string node = head;
  const std::string nil = iriTerm(kRdf + "nil");
  while (node != nil && seen.insert(node).second) {
    auto first = object(node, iriTerm(kRdf + "first"));
    auto rest = object(node, iriTerm(kRdf + "rest"));
    if (!first || !rest) break;
    out.push_back(*first);
    node = *rest;
  }
  return out;
}

namespace {

std::string localName(const std::string& term) {
  std::string s = term;
  if (!s.empty() && s.front() == '<') s = s.substr(1, s.size() - 2);
  auto cut = s.find_last_of("#/");
  return cut == std::string::npos ? s : s.substr(cut + 1);
}

}  // namespace

std::vector<ManifestTest> manifestTests(const RdfGraph& manifest) {
  const std::string type = iriTerm(kRdf + "type");
  std::vector<std::string> subjects;
  for (const auto& s : manifest.subjectsInOrder()) {
    for (const auto& head : manifest.objects(s, iriTerm(kMf + "entries"))) {
      for (const auto& entry : manifest.list(head)) subjects.push_back(entry);
    }
  }
  if (subjects.empty()) {
    for (const auto& s : manifest.subjectsInOrder()) {
      for (const auto& t : manifest.objects(s, type)) {
        if (t.rfind("<" + kMf, 0) == 0 && t.size() > 5 && t.substr(t.size() - 5) == "Test>") {
          subjects.push_back(s);
          break;
        }
      }
    }
  }
  std::vector<ManifestTest> out;
  for (const auto& s : subjects) {
    ManifestTest t;
    t.subject = s;
    t.name = localName(s);
    for (const auto& ty : manifest.objects(s, type)) {
      if (ty.rfind("<" + kMf, 0) == 0) t.type = localName(ty);
    }
    if (auto title = manifest.object(s, iriTerm(kMf + "name"))) t.title = lexicalForm(*title);
    out.push_back(std::move(t));
  }
  return out;
}

std::string lexicalForm(const std::string& term) {
  if (term.empty() || term.front() != '"') return term;
  auto close = term.rfind('"');
  std::string raw = term.substr(1, close - 1), out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      char c = raw[++i];
      out += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::filesystem::path pathOfIri(const std::string& term) {
  std::string iri = term;
  if (!iri.empty() && iri.front() == '<') iri = iri.substr(1, iri.size() - 2);
  const std::string scheme = "file://";
  return iri.rfind(scheme, 0) == 0 ? std::filesystem::path(iri.substr(scheme.size())) : std::filesystem::path(iri);
}

std::string fileUri(const std::filesystem::path& file) {
  return "file://" + std::filesystem::absolute(file).lexically_normal().string();
}

std::vector<GraphFile> graphData(const RdfGraph& manifest, const std::string& node) {
  std::vector<GraphFile> graphs;
  for (const auto& g : manifest.objects(node, iriTerm(kUt + "graphData"))) {
    auto file = manifest.object(g, iriTerm(kUt + "graph"));
    auto label = manifest.object(g, iriTerm("http://www.w3.org/2000/01/rdf-schema#label"));
    if (!file || !label || label->size() < 2) continue;
    graphs.push_back({pathOfIri(*file), "<" + label->substr(1, label->size() - 2) + ">"});
  }
  return graphs;
}

}  // namespace gsparql::conformance
