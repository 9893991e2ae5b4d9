#include "distributed/row_exchange.h"

#include <mpi.h>

#include <numeric>
#include <stdexcept>

namespace gsparql::distributed {
namespace {

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Counts in MPI's int: a round's rows for one rank must stay under 2^31 ids.
int asCount(size_t n) {
  if (n > static_cast<size_t>(std::numeric_limits<int>::max())) throw std::runtime_error("MPI: a round of rows over 2^31 ids");
  return static_cast<int>(n);
}

std::vector<int> offsetsOf(const std::vector<int>& counts) {
  std::vector<int> offsets(counts.size(), 0);
  std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
  return offsets;
}

engine::IdRows rowsOf(std::vector<uint32_t> data, uint32_t width, size_t zeroWidthRows) {
  engine::IdRows rows(width);
  rows.data() = std::move(data);
  if (width == 0) rows.setZeroWidthRows(zeroWidthRows);
  return rows;
}

}  // namespace

RowExchange::RowExchange() {
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks_), "MPI_Comm_size");
}

engine::IdRows RowExchange::exchange(const std::vector<engine::IdRows>& outgoing, uint32_t width) const {
  std::vector<int> sendCounts(ranks_), receiveCounts(ranks_);
  std::vector<uint32_t> send;
  for (int r = 0; r < ranks_; ++r) {
    sendCounts[r] = asCount(outgoing[r].data().size());
    send.insert(send.end(), outgoing[r].data().begin(), outgoing[r].data().end());
    if (r != rank_) rowsSent_ += outgoing[r].rows();
  }
  ++rounds_;
  check(MPI_Alltoall(sendCounts.data(), 1, MPI_INT, receiveCounts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Alltoall");
  const std::vector<int> sendOffsets = offsetsOf(sendCounts), receiveOffsets = offsetsOf(receiveCounts);
  std::vector<uint32_t> received(static_cast<size_t>(receiveOffsets.back()) + receiveCounts.back());
  check(MPI_Alltoallv(send.data(), sendCounts.data(), sendOffsets.data(), MPI_UINT32_T, received.data(),
                      receiveCounts.data(), receiveOffsets.data(), MPI_UINT32_T, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  return rowsOf(std::move(received), width, 0);
}

engine::IdRows RowExchange::gatherAll(const engine::IdRows& rows) const {
  const int count = asCount(rows.data().size());
  std::vector<int> counts(ranks_);
  check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  const std::vector<int> offsets = offsetsOf(counts);
  std::vector<uint32_t> all(static_cast<size_t>(offsets.back()) + counts.back());
  check(MPI_Allgatherv(rows.data().data(), count, MPI_UINT32_T, all.data(), counts.data(), offsets.data(),
                       MPI_UINT32_T, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  // Rows without columns (a BGP of constants) are counted, not sent.
  unsigned long long zeroWidth = rows.width() == 0 ? rows.rows() : 0, totalZeroWidth = 0;
  check(MPI_Allreduce(&zeroWidth, &totalZeroWidth, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return rowsOf(std::move(all), rows.width(), totalZeroWidth);
}

uint64_t RowExchange::sumOverRanks(uint64_t value) const {
  unsigned long long mine = value, sum = 0;
  check(MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return sum;
}

}  // namespace gsparql::distributed
