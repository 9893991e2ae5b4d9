// The LUBM generator against UBA 1.7's rules: determinism, N-Triples syntax
// (through the loader's reader), sizes within the rules' bounds, and the
// structure that the LUBM queries rely on.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/lubm/lubm_generator.h"
#include "loaders/input_stream.h"
#include "loaders/rdf_reader.h"

using namespace gsparql;

namespace {

const std::string kRdfType = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";

std::string ub(std::string_view local) {
  return "<http://swat.cse.lehigh.edu/onto/univ-bench.owl#" + std::string(local) + ">";
}

std::string universityIri(uint32_t index) {
  return "<http://www.University" + std::to_string(index) + ".edu>";
}

std::string generate(uint32_t university, uint64_t seed = 0) {
  lubm::GeneratorConfig config;
  config.seed = seed;
  std::string text;
  lubm::generateUniversity(config, university, text);
  return text;
}

std::string generate(uint32_t first, uint32_t count, unsigned threads) {
  std::string text;
  lubm::generateUniversities({}, first, count, threads,
                             [&](std::string_view university) { text += university; });
  return text;
}

// Text in memory, fed to the loader's reader.
class TextInput : public InputStream {
 public:
  explicit TextInput(std::string_view text) : text_(text) {}
  size_t read(char* buffer, size_t capacity) override {
    const size_t n = std::min(capacity, text_.size() - offset_);
    std::memcpy(buffer, text_.data() + offset_, n);
    offset_ += n;
    return n;
  }
  uint64_t sourceBytesRead() const override { return offset_; }
  uint64_t sourceBytesTotal() const override { return text_.size(); }

 private:
  std::string_view text_;
  size_t offset_ = 0;
};

// The triples of one university, read strictly (a bad line throws), indexed
// by subject and predicate.
class Graph {
 public:
  explicit Graph(std::string_view ntriples) {
    TextInput input(ntriples);
    readRdf(input, "lubm.nt", RdfFormat::NTriples, [&](const RdfStatementView& triple) {
      objects_[std::string(triple.subject)][std::string(triple.predicate)].emplace_back(
          triple.object);
      ++statements_;
    });
  }
  uint64_t statements() const { return statements_; }

  const std::vector<std::string>& objects(const std::string& subject,
                                          const std::string& predicate) const {
    static const std::vector<std::string> none;
    const auto bySubject = objects_.find(subject);
    if (bySubject == objects_.end()) return none;
    const auto byPredicate = bySubject->second.find(predicate);
    return byPredicate == bySubject->second.end() ? none : byPredicate->second;
  }
  bool hasType(const std::string& subject, const std::string& type) const {
    const auto& types = objects(subject, kRdfType);
    return std::find(types.begin(), types.end(), type) != types.end();
  }
  std::vector<std::string> instancesOf(const std::string& type) const {
    std::vector<std::string> instances;
    for (const auto& [subject, unused] : objects_) {
      if (hasType(subject, type)) instances.push_back(subject);
    }
    return instances;
  }
  // The one object of a functional property, or "" when there is none or several.
  std::string single(const std::string& subject, const std::string& predicate) const {
    const auto& all = objects(subject, predicate);
    return all.size() == 1 ? all.front() : "";
  }

 private:
  std::map<std::string, std::map<std::string, std::vector<std::string>>> objects_;
  uint64_t statements_ = 0;
};

size_t lineCount(std::string_view text) { return std::count(text.begin(), text.end(), '\n'); }

// UBA 1.7's numbers per department, written down from its documentation.
struct Range {
  uint64_t min, max;
};
struct RankRule {
  const char* type;
  Range members, publications;
  bool professor;
};
const RankRule kRanks[] = {{"FullProfessor", {7, 10}, {15, 20}, true},
                           {"AssociateProfessor", {10, 14}, {10, 18}, true},
                           {"AssistantProfessor", {8, 11}, {5, 10}, true},
                           {"Lecturer", {5, 7}, {0, 5}, false}};
const Range kDepartments{15, 25};

// The fewest and most triples a department can have: every count at the low
// (high) end of its range, each entity with its fewest (most) properties.
Range departmentTriples() {
  Range total{5, 5};  // type, name, subOrganizationOf, its university's type; headOf
  Range faculty{0, 0};
  for (const RankRule& rank : kRanks) {
    // type, name, e-mail, telephone, worksFor, 3 degrees with their university's
    // type, a research interest; 2-4 courses taught with each course's type and
    // name; publications with type, name and author.
    const uint64_t fixed = 11 + (rank.professor ? 1 : 0);
    total.min += rank.members.min * (fixed + 3 * 2 + 3 * rank.publications.min);
    total.max += rank.members.max * (fixed + 3 * 4 + 3 * rank.publications.max);
    faculty.min += rank.members.min;
    faculty.max += rank.members.max;
  }
  // Undergraduates (8-14 per faculty member): 4 person triples, memberOf,
  // 2-4 courses, one in 5 an advisor.
  total.min += 8 * faculty.min * 7;
  total.max += 14 * faculty.max * 10;
  // Graduates (3-4 per faculty member): 4 person triples, memberOf, 1-3
  // courses, a degree with its university's type, an advisor, 0-5 co-authored
  // publications; teaching assistants (grads/5 - grads/4, 2 triples each) and
  // research assistants (grads/4 - grads/3, 1 triple each).
  const Range graduates{3 * faculty.min, 4 * faculty.max};
  total.min += graduates.min * 9 + graduates.min / 5 * 2 + graduates.min / 4;
  total.max += graduates.max * 16 + graduates.max / 4 * 2 + graduates.max / 3;
  // 10-20 research groups: type and subOrganizationOf.
  total.min += 10 * 2;
  total.max += 20 * 2;
  return total;
}

bool within(uint64_t value, Range range) { return range.min <= value && value <= range.max; }

}  // namespace

TEST_CASE("the bytes depend on the seed and the university, not on the threads") {
  std::string oneByOne;
  for (uint32_t university = 2; university < 5; ++university) oneByOne += generate(university);
  CHECK(generate(2, 3, 1) == oneByOne);
  CHECK(generate(2, 3, 4) == oneByOne);
}

TEST_CASE("seeds and universities give different data") {
  CHECK(generate(0, 0) != generate(0, 1));
  // Beyond the names: University1's text with its index renamed is still not University0's.
  std::string renamed = generate(1);
  for (size_t at = 0; (at = renamed.find("University1.edu", at)) != std::string::npos;) {
    renamed.replace(at, 15, "University0.edu");
  }
  CHECK(renamed != generate(0));
}

TEST_CASE("every line is one N-Triples statement") {
  for (uint64_t seed : {0, 42}) {
    const std::string text = generate(0, seed);
    CHECK(Graph(text).statements() == lineCount(text));
  }
}

TEST_CASE("a university's size is within the bounds of UBA's rules") {
  const Range perDepartment = departmentTriples();
  const Range perUniversity{2 + kDepartments.min * perDepartment.min,
                            2 + kDepartments.max * perDepartment.max};
  for (uint32_t university = 0; university < 5; ++university) {
    CAPTURE(university);
    CHECK(within(lineCount(generate(university)), perUniversity));
  }
}

TEST_CASE("departments, people and their links follow UBA's rules") {
  for (uint32_t university : {0u, 3u}) {
    CAPTURE(university);
    const Graph graph(generate(university));
    const std::vector<std::string> departments = graph.instancesOf(ub("Department"));
    CHECK(within(departments.size(), kDepartments));
    for (const std::string& department : departments) {
      CAPTURE(department);
      CHECK(graph.single(department, ub("subOrganizationOf")) == universityIri(university));
    }
    auto isDepartment = [&](const std::string& iri) {
      return std::find(departments.begin(), departments.end(), iri) != departments.end();
    };

    // Faculty per department and rank, and who heads each department.
    std::map<std::string, std::map<std::string, uint64_t>> facultyByRank;
    std::map<std::string, std::vector<std::string>> heads;
    for (const RankRule& rank : kRanks) {
      for (const std::string& member : graph.instancesOf(ub(rank.type))) {
        const std::string department = graph.single(member, ub("worksFor"));
        REQUIRE(isDepartment(department));
        ++facultyByRank[department][rank.type];
        for (const std::string& headed : graph.objects(member, ub("headOf"))) {
          CHECK(headed == department);
          CHECK(std::string(rank.type) == "FullProfessor");
          heads[headed].push_back(member);
        }
      }
    }
    std::map<std::string, uint64_t> facultySize;
    for (const std::string& department : departments) {
      CAPTURE(department);
      CHECK(heads[department].size() == 1);
      for (const RankRule& rank : kRanks) {
        CHECK(within(facultyByRank[department][rank.type], rank.members));
        facultySize[department] += facultyByRank[department][rank.type];
      }
    }

    // Students: members of a department of this university, in the numbers
    // the faculty size allows; graduate students advised by a professor of
    // their department.
    std::map<std::string, uint64_t> undergraduates, graduates;
    for (const std::string& student : graph.instancesOf(ub("UndergraduateStudent"))) {
      const std::string department = graph.single(student, ub("memberOf"));
      REQUIRE(isDepartment(department));
      ++undergraduates[department];
    }
    for (const std::string& student : graph.instancesOf(ub("GraduateStudent"))) {
      CAPTURE(student);
      const std::string department = graph.single(student, ub("memberOf"));
      REQUIRE(isDepartment(department));
      ++graduates[department];
      const std::string advisor = graph.single(student, ub("advisor"));
      CHECK((graph.hasType(advisor, ub("FullProfessor")) ||
             graph.hasType(advisor, ub("AssociateProfessor")) ||
             graph.hasType(advisor, ub("AssistantProfessor"))));
      CHECK(graph.single(advisor, ub("worksFor")) == department);
    }
    for (const std::string& department : departments) {
      CAPTURE(department);
      CHECK(within(undergraduates[department],
                   {8 * facultySize[department], 14 * facultySize[department]}));
      CHECK(within(graduates[department],
                   {3 * facultySize[department], 4 * facultySize[department]}));
    }
  }
}

TEST_CASE("courses taken are taught, and degrees come from UBA's 1000 universities") {
  const Graph graph(generate(1));
  std::set<std::string> taught;
  for (const char* rank : {"FullProfessor", "AssociateProfessor", "AssistantProfessor", "Lecturer"}) {
    for (const std::string& member : graph.instancesOf(ub(rank))) {
      for (const std::string& course : graph.objects(member, ub("teacherOf"))) {
        CHECK(taught.insert(course).second);  // one teacher per course
      }
    }
  }
  std::set<std::string> degreeGranting;
  for (const char* kind : {"UndergraduateStudent", "GraduateStudent"}) {
    for (const std::string& student : graph.instancesOf(ub(kind))) {
      for (const std::string& course : graph.objects(student, ub("takesCourse"))) {
        CHECK(taught.count(course) == 1);
      }
      for (const std::string& university : graph.objects(student, ub("undergraduateDegreeFrom"))) {
        degreeGranting.insert(university);
      }
    }
  }
  for (const std::string& assistant : graph.instancesOf(ub("TeachingAssistant"))) {
    CHECK(graph.hasType(assistant, ub("GraduateStudent")));
    CHECK(taught.count(graph.single(assistant, ub("teachingAssistantOf"))) == 1);
  }
  CHECK(degreeGranting.size() > 100);
  for (const std::string& university : degreeGranting) {
    CAPTURE(university);
    CHECK(graph.hasType(university, ub("University")));
    const int index = std::stoi(university.substr(std::strlen("<http://www.University")));
    CHECK((0 <= index && index < 1000));
  }
}

TEST_CASE("an error in the sink stops the workers and reaches the caller") {
  int received = 0;
  CHECK_THROWS_AS(lubm::generateUniversities({}, 0, 50, 3,
                                             [&](std::string_view) {
                                               if (++received == 2) throw std::runtime_error("full");
                                             }),
                  std::runtime_error);
  CHECK(received == 2);
}
