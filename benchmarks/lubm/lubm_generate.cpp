// lubm-generate: LUBM data (UBA 1.7's rules) as N-Triples on standard output
// or in a file. See README.md.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "benchmarks/lubm/lubm_generator.h"

namespace {

constexpr const char* kUsage =
    "usage: lubm-generate --universities N [--seed S] [--threads T] [--first-university K]\n"
    "                     [--output FILE|-] [--degree-universities M] [--ontology IRI]\n"
    "  N-Triples of universities K .. K+N-1 (default K 0, seed 0, output -, T the number of\n"
    "  cores). The bytes depend on the seed and the universities only, not on T.\n"
    "  --degree-universities: degrees come from universities 0 .. M-1 (UBA: 1000)\n"
    "  --ontology: the univ-bench namespace, without '#'\n"
    "  (default http://swat.cse.lehigh.edu/onto/univ-bench.owl)\n";

struct Options {
  gsparql::lubm::GeneratorConfig config;
  uint32_t universities = 0;
  uint32_t first = 0;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::string output = "-";
};

template <typename Number>
Number parseNumber(std::string_view option, std::string_view text) {
  Number value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument(std::string(option) + ": not a number: " + std::string(text));
  }
  return value;
}

Options parseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view option = argv[i];
    if (i + 1 == argc) throw std::invalid_argument(std::string(option) + ": value missing");
    const std::string_view value = argv[++i];
    if (option == "--universities") {
      options.universities = parseNumber<uint32_t>(option, value);
    } else if (option == "--seed") {
      options.config.seed = parseNumber<uint64_t>(option, value);
    } else if (option == "--threads") {
      options.threads = parseNumber<unsigned>(option, value);
    } else if (option == "--first-university") {
      options.first = parseNumber<uint32_t>(option, value);
    } else if (option == "--output") {
      options.output = value;
    } else if (option == "--degree-universities") {
      options.config.degreeUniversities = parseNumber<uint32_t>(option, value);
    } else if (option == "--ontology") {
      options.config.ontology = value;
    } else {
      throw std::invalid_argument("unknown option " + std::string(option));
    }
  }
  if (options.universities == 0) throw std::invalid_argument("--universities N (N > 0) is required");
  if (options.threads == 0) throw std::invalid_argument("--threads must be at least 1");
  if (options.config.degreeUniversities == 0) {
    throw std::invalid_argument("--degree-universities must be at least 1");
  }
  if (options.first > UINT32_MAX - options.universities) {
    throw std::invalid_argument("--first-university + --universities is too large");
  }
  return options;
}

void writeAll(std::FILE* file, std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
    throw std::runtime_error(std::string("write failed: ") + std::strerror(errno));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parseOptions(argc, argv);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "lubm-generate: %s\n%s", error.what(), kUsage);
    return 2;
  }
  const bool toStdout = options.output == "-";
  std::FILE* file = toStdout ? stdout : std::fopen(options.output.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "lubm-generate: %s: %s\n", options.output.c_str(), std::strerror(errno));
    return 1;
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    const uint64_t triples = gsparql::lubm::generateUniversities(
        options.config, options.first, options.universities, options.threads,
        [&](std::string_view text) { writeAll(file, text); });
    if (std::fflush(file) != 0 || (!toStdout && std::fclose(file) != 0)) {
      throw std::runtime_error(std::string("write failed: ") + std::strerror(errno));
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "lubm-generate: %u universities, %llu triples in %.2f s (%.2f M triples/s)\n",
                 options.universities, static_cast<unsigned long long>(triples), seconds,
                 triples / seconds / 1e6);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lubm-generate: %s: %s\n", options.output.c_str(), error.what());
    return 1;
  }
  return 0;
}
