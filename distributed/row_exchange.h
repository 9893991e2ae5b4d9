#pragma once
// Rows of ids between the ranks of an MPI job, in bulk-synchronous rounds:
// every rank calls each function at the same point of the same query (the
// ranks run the same plan, docs/distributed.md), so they are collective.
#include <cstdint>
#include <vector>

#include "engine/bgp/id_rows.h"

namespace gsparql::distributed {

class RowExchange {
 public:
  RowExchange();  // on MPI_COMM_WORLD, which MPI_Init has made
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

  // Sends outgoing[r] (rows of one width) to rank r; returns what every rank
  // sent to this one, in rank order.
  engine::IdRows exchange(const std::vector<engine::IdRows>& outgoing, uint32_t width) const;
  // Every rank's rows, in rank order, on every rank.
  engine::IdRows gatherAll(const engine::IdRows& rows) const;
  // The sum of every rank's `value`, on every rank.
  uint64_t sumOverRanks(uint64_t value) const;

  // Rows this rank sent to other ranks, and the exchanges it took part in.
  uint64_t rowsSent() const { return rowsSent_; }
  uint64_t rounds() const { return rounds_; }

 private:
  int rank_ = 0;
  int ranks_ = 1;
  mutable uint64_t rowsSent_ = 0, rounds_ = 0;
};

}  // namespace gsparql::distributed
