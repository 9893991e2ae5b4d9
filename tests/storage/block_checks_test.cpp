#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "storage/block_checks.h"

using namespace gsparql;

namespace {

// Waits up to a second for `flag`; false if it never came.
bool waitFor(const std::atomic<bool>& flag) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!flag.load()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace

TEST_CASE("block checks: each block is checked once, by however many threads need it") {
  constexpr size_t kBlocks = 64;
  constexpr int kThreads = 8;
  BlockChecks checks(kBlocks);
  std::vector<std::atomic<int>> runs(kBlocks);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (size_t round = 0; round < 3; ++round) {
        for (size_t b = 0; b < kBlocks; ++b) checks.ensure(b, [&] { ++runs[b]; });
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (size_t b = 0; b < kBlocks; ++b) {
    CHECK(runs[b].load() == 1);
    CHECK(checks.passed(b));
  }
}

TEST_CASE("block checks: two blocks are checked at the same time, each on its own thread") {
  // Block 0's check waits for block 1's to start: with one lock for all
  // blocks (as before) the second check could not start, and this failed.
  BlockChecks checks(2);
  std::atomic<bool> firstStarted{false}, secondStarted{false};
  bool sawSecond = false;
  std::thread first([&] {
    checks.ensure(0, [&] {
      firstStarted = true;
      sawSecond = waitFor(secondStarted);
    });
  });
  REQUIRE(waitFor(firstStarted));  // block 0's check is running
  checks.ensure(1, [&] { secondStarted = true; });
  first.join();
  CHECK(sawSecond);
  CHECK(checks.passed(0));
  CHECK(checks.passed(1));
}

TEST_CASE("block checks: a thread that waits on a block that fails its check checks it again and throws") {
  BlockChecks checks(1);
  std::atomic<bool> checking{false}, release{false};
  std::atomic<int> runs{0};
  auto damaged = [&] {
    ++runs;
    checking = true;
    waitFor(release);
    throw std::runtime_error("damaged");
  };
  std::thread first([&] { CHECK_THROWS_AS(checks.ensure(0, damaged), std::runtime_error); });
  REQUIRE(waitFor(checking));
  std::thread second([&] { CHECK_THROWS_AS(checks.ensure(0, damaged), std::runtime_error); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the second waits on the first's check
  release = true;
  first.join();
  second.join();
  CHECK(runs.load() == 2);
  CHECK_FALSE(checks.passed(0));
  CHECK_THROWS_AS(checks.ensure(0, [] { throw std::runtime_error("still damaged"); }), std::runtime_error);
}

TEST_CASE("block checks: a block marked passed is not checked, and copies share what passed") {
  BlockChecks checks(3);
  checks.markPassed(1);
  int runs = 0;
  checks.ensure(1, [&] { ++runs; });
  CHECK(runs == 0);
  const BlockChecks copy = checks;
  copy.ensure(2, [&] { ++runs; });
  checks.ensure(2, [&] { ++runs; });
  CHECK(runs == 1);
  CHECK(checks.size() == 3);
  CHECK(BlockChecks().size() == 0);
}
