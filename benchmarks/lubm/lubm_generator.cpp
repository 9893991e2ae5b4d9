#include "benchmarks/lubm/lubm_generator.h"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>
#include <span>
#include <thread>
#include <vector>

namespace gsparql::lubm {
namespace {

// ---------------------------------------------------------------------------
// UBA 1.7's rules: how many of each per department (bounds inclusive).

struct Range {
  uint32_t min, max;
};

constexpr Range kDepartments{15, 25};
constexpr Range kResearchGroups{10, 20};
constexpr Range kUndergraduatesPerFaculty{8, 14};
constexpr Range kGraduatesPerFaculty{3, 4};
// Graduate students per teaching (research) assistant: the assistants are
// between grads/5 and grads/4 (grads/4 and grads/3).
constexpr Range kGraduatesPerTeachingAssistant{4, 5};
constexpr Range kGraduatesPerResearchAssistant{3, 4};
// Each faculty member teaches this many undergraduate courses, and as many
// graduate courses. Since it is at least 1 and there are at most grads/4
// teaching assistants, every assistant gets a course of their own.
constexpr Range kCoursesPerFaculty{1, 2};
constexpr Range kCoursesPerUndergraduate{2, 4};
constexpr Range kCoursesPerGraduate{1, 3};
constexpr Range kPublicationsPerGraduate{0, 5};  // co-authored with the department's faculty
constexpr uint32_t kUndergraduatesPerAdvisor = 5;  // one undergraduate in 5 has an advisor
constexpr uint32_t kResearchAreas = 30;

enum Class : uint8_t {
  University, Department, FullProfessor, AssociateProfessor, AssistantProfessor, Lecturer,
  UndergraduateStudent, GraduateStudent, TeachingAssistant, ResearchAssistant, Course,
  GraduateCourse, Publication, ResearchGroup, kClassCount
};
// The class names are also the local names of the instances: FullProfessor3.
constexpr std::array<std::string_view, kClassCount> kClassNames{
    "University", "Department", "FullProfessor", "AssociateProfessor", "AssistantProfessor",
    "Lecturer", "UndergraduateStudent", "GraduateStudent", "TeachingAssistant",
    "ResearchAssistant", "Course", "GraduateCourse", "Publication", "ResearchGroup"};

enum Property : uint8_t {
  name, takesCourse, teacherOf, undergraduateDegreeFrom, mastersDegreeFrom, doctoralDegreeFrom,
  advisor, memberOf, publicationAuthor, headOf, teachingAssistantOf, researchInterest,
  emailAddress, telephone, subOrganizationOf, worksFor, kPropertyCount
};
constexpr std::array<std::string_view, kPropertyCount> kPropertyNames{
    "name", "takesCourse", "teacherOf", "undergraduateDegreeFrom", "mastersDegreeFrom",
    "doctoralDegreeFrom", "advisor", "memberOf", "publicationAuthor", "headOf",
    "teachingAssistantOf", "researchInterest", "emailAddress", "telephone", "subOrganizationOf",
    "worksFor"};

struct Rank {
  Class type;
  Range members;
  Range publications;
  bool professor;  // professors have a research interest and can be advisors
};
// In generation order; advisors are drawn among the first kProfessorRanks.
constexpr std::array<Rank, 4> kRanks{{
    {FullProfessor, {7, 10}, {15, 20}, true},
    {AssociateProfessor, {10, 14}, {10, 18}, true},
    {AssistantProfessor, {8, 11}, {5, 10}, true},
    {Lecturer, {5, 7}, {0, 5}, false},
}};
constexpr uint32_t kProfessorRanks = 3;
constexpr size_t kFullProfessorRank = 0;  // the department head is one of them

// ---------------------------------------------------------------------------

// splitmix64: one multiply-xorshift round per draw, statistically fine for
// test data and several times faster than std::mt19937_64.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by multiply-shift (Lemire); the bias is below 2^-32 * n.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  uint32_t in(Range range) { return range.min + below(range.max - range.min + 1); }

 private:
  uint64_t state_;
};

// A university's stream depends on (seed, index) only; hashing both keeps
// neighbouring seeds and indexes from producing overlapping streams.
uint64_t universitySeed(uint64_t seed, uint32_t index) {
  return Random(Random(seed).next() ^ index).next();
}

void appendNumber(std::string& out, uint32_t n) {
  char digits[10];
  char* end = digits + sizeof digits;
  char* begin = end;
  do {
    *--begin = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  out.append(begin, end);
}

// The predicate and type text, spelled out once per generation.
struct Vocabulary {
  explicit Vocabulary(std::string_view ontology) {
    const std::string prefix = "<" + std::string(ontology) + "#";
    for (size_t c = 0; c < kClassCount; ++c) {
      typeTail[c] = " <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> " + prefix +
                    std::string(kClassNames[c]) + "> .\n";
    }
    for (size_t p = 0; p < kPropertyCount; ++p) {
      predicate[p] = " " + prefix + std::string(kPropertyNames[p]) + "> ";
    }
  }
  std::array<std::string, kClassCount> typeTail;       // after the subject of a type triple
  std::array<std::string, kPropertyCount> predicate;  // between subject and object
};

// Appends N-Triples lines; subjects and IRI objects come with their brackets.
// Literals are written unescaped: all of ours are letters, digits, '@', '.', '-'.
class TripleWriter {
 public:
  TripleWriter(const Vocabulary& vocabulary, std::string& out)
      : vocabulary_(vocabulary), out_(out) {}

  void type(std::string_view subject, Class type) {
    out_ += subject;
    out_ += vocabulary_.typeTail[type];
    ++triples_;
  }
  void link(std::string_view subject, Property property, std::string_view object) {
    out_ += subject;
    out_ += vocabulary_.predicate[property];
    out_ += object;
    out_ += " .\n";
    ++triples_;
  }
  void text(std::string_view subject, Property property, std::string_view lexical) {
    out_ += subject;
    out_ += vocabulary_.predicate[property];
    out_ += '"';
    out_ += lexical;
    out_ += "\" .\n";
    ++triples_;
  }
  uint64_t triples() const { return triples_; }

 private:
  const Vocabulary& vocabulary_;
  std::string& out_;
  uint64_t triples_ = 0;
};

// <http://www.University7.edu>
std::string_view universityIri(std::string& buffer, uint32_t university) {
  buffer.assign("<http://www.University");
  appendNumber(buffer, university);
  buffer += ".edu>";
  return buffer;
}

// How many of each a department has, drawn before any of them is written
// because advisors and assistants refer across the groups.
struct DepartmentPlan {
  std::array<uint32_t, kRanks.size()> faculty{};
  uint32_t facultyTotal = 0;
  uint32_t undergraduates = 0, graduates = 0;
  uint32_t teachingAssistants = 0, researchAssistants = 0;
  uint32_t researchGroups = 0;
  uint32_t head = 0;  // index among the full professors

  explicit DepartmentPlan(Random& random) {
    for (size_t rank = 0; rank < kRanks.size(); ++rank) {
      faculty[rank] = random.in(kRanks[rank].members);
      facultyTotal += faculty[rank];
    }
    undergraduates = random.in(scaled(kUndergraduatesPerFaculty, facultyTotal));
    graduates = random.in(scaled(kGraduatesPerFaculty, facultyTotal));
    teachingAssistants = random.in(perRatio(graduates, kGraduatesPerTeachingAssistant));
    researchAssistants = random.in(perRatio(graduates, kGraduatesPerResearchAssistant));
    researchGroups = random.in(kResearchGroups);
    head = random.below(faculty[kFullProfessorRank]);
  }

 private:
  static Range scaled(Range perUnit, uint32_t units) {
    return {perUnit.min * units, perUnit.max * units};
  }
  static Range perRatio(uint32_t total, Range ratio) {
    return {total / ratio.max, total / ratio.min};
  }
};

// A publication is named after its first author: .../FullProfessor3/Publication5.
struct PublicationRef {
  uint8_t rank;
  uint32_t member;
  uint32_t number;
};

// Consecutive courses taught by one faculty member: UBA hands them out in order.
struct CourseRange {
  uint32_t first, count;
};

class DepartmentGenerator {
 public:
  DepartmentGenerator(const GeneratorConfig& config, TripleWriter& writer, Random& random,
                      uint32_t university, uint32_t department)
      : config_(config), writer_(writer), random_(random), plan_(random) {
    domain_.assign("Department");
    appendNumber(domain_, department);
    domain_ += ".University";
    appendNumber(domain_, university);
    domain_ += ".edu";
    departmentIri_ = "<http://www." + domain_ + ">";
    universityIri(universityIri_, university);
    departmentName_.assign("Department");
    appendNumber(departmentName_, department);
  }

  void run() {
    writeDepartment();
    for (uint8_t rank = 0; rank < kRanks.size(); ++rank) {
      for (uint32_t member = 0; member < plan_.faculty[rank]; ++member) writeFaculty(rank, member);
    }
    for (uint32_t i = 0; i < plan_.undergraduates; ++i) writeUndergraduate(i);
    for (uint32_t i = 0; i < plan_.graduates; ++i) writeGraduate(i);
    writeAssistants();
    for (uint32_t i = 0; i < plan_.researchGroups; ++i) writeResearchGroup(i);
  }

 private:
  // <http://www.Department0.University0.edu/FullProfessor3>
  std::string_view entityIri(std::string& buffer, Class type, uint32_t number) const {
    buffer.assign("<http://www.");
    buffer += domain_;
    buffer += '/';
    buffer += kClassNames[type];
    appendNumber(buffer, number);
    buffer += '>';
    return buffer;
  }
  std::string_view publicationIri(std::string& buffer, const PublicationRef& publication) const {
    entityIri(buffer, kRanks[publication.rank].type, publication.member);
    buffer.pop_back();
    buffer += "/Publication";
    appendNumber(buffer, publication.number);
    buffer += '>';
    return buffer;
  }
  // FullProfessor3, Course12, Research7: a class name and a number.
  std::string_view numbered(std::string_view prefix, uint32_t number) {
    text_.assign(prefix);
    appendNumber(text_, number);
    return text_;
  }
  std::string_view email(Class type, uint32_t number) {
    numbered(kClassNames[type], number);
    text_ += '@';
    text_ += domain_;
    return text_;
  }

  void writeDepartment() {
    writer_.type(departmentIri_, Department);
    writer_.text(departmentIri_, name, departmentName_);
    writer_.link(departmentIri_, subOrganizationOf, universityIri_);
    writer_.type(universityIri_, University);
  }

  // Name, e-mail address and telephone: what every person has.
  void writePerson(std::string_view iri, Class type, uint32_t number) {
    writer_.type(iri, type);
    writer_.text(iri, name, numbered(kClassNames[type], number));
    writer_.text(iri, emailAddress, email(type, number));
    writer_.text(iri, telephone, "xxx-xxx-xxxx");
  }

  // UBA writes the degree-granting university's type along with every degree.
  void writeDegree(std::string_view person, Property degree) {
    universityIri(otherIri_, random_.below(config_.degreeUniversities));
    writer_.link(person, degree, otherIri_);
    writer_.type(otherIri_, University);
  }

  CourseRange assignCourses(uint32_t& taughtSoFar) {
    CourseRange courses{taughtSoFar, random_.in(kCoursesPerFaculty)};
    taughtSoFar += courses.count;
    return courses;
  }
  void writeTeaching(std::string_view teacher, CourseRange courses, Class type) {
    for (uint32_t c = courses.first; c < courses.first + courses.count; ++c) {
      writer_.link(teacher, teacherOf, entityIri(otherIri_, type, c));
    }
  }
  void writeCourses(CourseRange courses, Class type) {
    for (uint32_t c = courses.first; c < courses.first + courses.count; ++c) {
      entityIri(otherIri_, type, c);
      writer_.type(otherIri_, type);
      writer_.text(otherIri_, name, numbered(kClassNames[type], c));
    }
  }

  void writeFaculty(uint8_t rankIndex, uint32_t member) {
    const Rank& rank = kRanks[rankIndex];
    const std::string_view iri = entityIri(iri_, rank.type, member);
    writePerson(iri, rank.type, member);
    const CourseRange undergraduate = assignCourses(undergraduateCourses_);
    const CourseRange graduate = assignCourses(graduateCourses_);
    writeTeaching(iri, undergraduate, Course);
    writeTeaching(iri, graduate, GraduateCourse);
    for (Property degree : {undergraduateDegreeFrom, mastersDegreeFrom, doctoralDegreeFrom}) {
      writeDegree(iri, degree);
    }
    writer_.link(iri, worksFor, departmentIri_);
    if (rank.professor) {
      writer_.text(iri, researchInterest, numbered("Research", random_.below(kResearchAreas)));
    }
    if (rankIndex == kFullProfessorRank && member == plan_.head) {
      writer_.link(iri, headOf, departmentIri_);
    }
    writeCourses(undergraduate, Course);
    writeCourses(graduate, GraduateCourse);
    writeOwnPublications(iri, rankIndex, member);
  }

  void writeOwnPublications(std::string_view author, uint8_t rank, uint32_t member) {
    const uint32_t count = random_.in(kRanks[rank].publications);
    for (uint32_t number = 0; number < count; ++number) {
      const PublicationRef publication{rank, member, number};
      publications_.push_back(publication);
      publicationIri(otherIri_, publication);
      writer_.type(otherIri_, Publication);
      writer_.text(otherIri_, name, numbered("Publication", number));
      writer_.link(otherIri_, publicationAuthor, author);
    }
  }

  // UBA draws the advisor's rank first, then one of that rank's members.
  void writeAdvisor(std::string_view student) {
    const uint32_t rank = random_.below(kProfessorRanks);
    const uint32_t member = random_.below(plan_.faculty[rank]);
    writer_.link(student, advisor, entityIri(otherIri_, kRanks[rank].type, member));
  }

  void writeStudent(std::string_view iri, Class type, uint32_t number, Class courseType,
                    uint32_t coursesOffered, Range coursesTaken) {
    writePerson(iri, type, number);
    writer_.link(iri, memberOf, departmentIri_);
    for (uint32_t course : sample(random_.in(coursesTaken), coursesOffered)) {
      writer_.link(iri, takesCourse, entityIri(otherIri_, courseType, course));
    }
  }

  void writeUndergraduate(uint32_t number) {
    const std::string_view iri = entityIri(iri_, UndergraduateStudent, number);
    writeStudent(iri, UndergraduateStudent, number, Course, undergraduateCourses_,
                 kCoursesPerUndergraduate);
    if (random_.below(kUndergraduatesPerAdvisor) == 0) writeAdvisor(iri);
  }

  void writeGraduate(uint32_t number) {
    const std::string_view iri = entityIri(iri_, GraduateStudent, number);
    writeStudent(iri, GraduateStudent, number, GraduateCourse, graduateCourses_,
                 kCoursesPerGraduate);
    writeDegree(iri, undergraduateDegreeFrom);
    writeAdvisor(iri);
    const uint32_t wanted = random_.in(kPublicationsPerGraduate);
    const auto count = static_cast<uint32_t>(publications_.size());
    for (uint32_t index : sample(std::min(wanted, count), count)) {
      writer_.link(publicationIri(otherIri_, publications_[index]), publicationAuthor, iri);
    }
  }

  // Assistants are distinct graduate students; each teaching assistant
  // assists a different undergraduate course.
  void writeAssistants() {
    const uint32_t assistants = plan_.teachingAssistants + plan_.researchAssistants;
    const std::span<const uint32_t> chosen = sample(assistants, plan_.graduates);
    const std::vector<uint32_t> students(chosen.begin(), chosen.end());  // before the next sample
    const std::span<const uint32_t> courses =
        sample(plan_.teachingAssistants, undergraduateCourses_);
    for (uint32_t i = 0; i < assistants; ++i) {
      const std::string_view iri = entityIri(iri_, GraduateStudent, students[i]);
      if (i < plan_.teachingAssistants) {
        writer_.type(iri, TeachingAssistant);
        writer_.link(iri, teachingAssistantOf, entityIri(otherIri_, Course, courses[i]));
      } else {
        writer_.type(iri, ResearchAssistant);
      }
    }
  }

  void writeResearchGroup(uint32_t number) {
    const std::string_view iri = entityIri(iri_, ResearchGroup, number);
    writer_.type(iri, ResearchGroup);
    writer_.link(iri, subOrganizationOf, departmentIri_);
  }

  // `count` distinct numbers of [0, n), uniformly, in random order (a partial
  // Fisher-Yates shuffle). Valid until the next call.
  std::span<const uint32_t> sample(uint32_t count, uint32_t n) {
    sample_.resize(n);
    std::iota(sample_.begin(), sample_.end(), 0u);
    for (uint32_t i = 0; i < count; ++i) {
      std::swap(sample_[i], sample_[i + random_.below(n - i)]);
    }
    return {sample_.data(), count};
  }

  const GeneratorConfig& config_;
  TripleWriter& writer_;
  Random& random_;
  const DepartmentPlan plan_;
  std::string domain_;  // Department3.University7.edu: host of the IRIs, domain of e-mails
  std::string departmentIri_, universityIri_, departmentName_;
  std::string iri_, otherIri_, text_;  // reused so that no triple allocates
  uint32_t undergraduateCourses_ = 0, graduateCourses_ = 0;  // handed out so far
  std::vector<PublicationRef> publications_;
  std::vector<uint32_t> sample_;
};

uint64_t writeUniversity(const GeneratorConfig& config, const Vocabulary& vocabulary,
                         uint32_t index, std::string& out) {
  Random random(universitySeed(config.seed, index));
  TripleWriter writer(vocabulary, out);
  std::string iri, lexical;
  universityIri(iri, index);
  writer.type(iri, University);
  lexical.assign("University");
  appendNumber(lexical, index);
  writer.text(iri, name, lexical);
  const uint32_t departments = random.in(kDepartments);
  for (uint32_t department = 0; department < departments; ++department) {
    DepartmentGenerator(config, writer, random, index, department).run();
  }
  return writer.triples();
}

// Workers fill a ring of buffers, one university each; the calling thread
// drains them in index order. A worker only starts university i once the
// buffer it will reuse (that of i - ring size) has been drained, which bounds
// memory to the ring whatever the number of universities.
class Pipeline {
 public:
  Pipeline(const GeneratorConfig& config, uint32_t first, uint32_t count, unsigned threads)
      : config_(config), vocabulary_(config.ontology), first_(first), end_(first + count),
        slots_(2 * std::max(threads, 1u)), next_(first), drained_(first) {
    for (unsigned t = 0; t < std::max(threads, 1u); ++t) workers_.emplace_back([this] { work(); });
  }
  ~Pipeline() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  uint64_t drain(const UniversitySink& sink) {
    uint64_t triples = 0;
    for (uint32_t index = first_; index < end_; ++index) {
      Slot& slot = slotOf(index);
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return slot.ready || failure_; });
        if (failure_) std::rethrow_exception(failure_);
      }
      sink(slot.text);
      triples += slot.triples;
      {
        std::lock_guard lock(mutex_);
        slot.ready = false;
        ++drained_;
      }
      changed_.notify_all();
    }
    return triples;
  }

 private:
  struct Slot {
    std::string text;
    uint64_t triples = 0;
    bool ready = false;
  };
  Slot& slotOf(uint32_t index) { return slots_[(index - first_) % slots_.size()]; }

  void work() {
    // Generated outside the ring: the slots' string headers share cache lines,
    // and the draining thread only ever sees finished text.
    std::string text;
    for (;;) {
      uint32_t index;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] {
          return stopping_ || next_ == end_ || next_ - drained_ < slots_.size();
        });
        if (stopping_ || next_ == end_) return;
        index = next_++;
      }
      uint64_t triples = 0;
      try {
        text.clear();
        triples = writeUniversity(config_, vocabulary_, index, text);
      } catch (...) {
        std::lock_guard lock(mutex_);
        failure_ = std::current_exception();
      }
      {
        std::lock_guard lock(mutex_);
        Slot& slot = slotOf(index);
        slot.text.swap(text);  // and take the drained buffer back, with its capacity
        slot.triples = triples;
        slot.ready = true;
      }
      changed_.notify_all();
    }
  }

  const GeneratorConfig& config_;
  const Vocabulary vocabulary_;
  const uint32_t first_, end_;
  std::vector<Slot> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint32_t next_;     // the next university to hand to a worker
  uint32_t drained_;  // universities given to the sink so far, plus first_
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::vector<std::thread> workers_;
};

}  // namespace

uint64_t generateUniversity(const GeneratorConfig& config, uint32_t index, std::string& out) {
  return writeUniversity(config, Vocabulary(config.ontology), index, out);
}

uint64_t generateUniversities(const GeneratorConfig& config, uint32_t first, uint32_t count,
                              unsigned threads, const UniversitySink& sink) {
  Pipeline pipeline(config, first, count, threads);
  return pipeline.drain(sink);
}

}  // namespace gsparql::lubm
