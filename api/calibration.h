#pragma once
// Database::calibrate's loop, apart from the database: runs each query on
// each executor, keeps the fastest of a few runs, and fits the cost model's
// constants to the times (engine/optimizer/cost_model.h). What the GPU's
// first run of a query took beyond its fastest, over the bytes that run
// copied, prices the GPU's copies.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/optimizer/cost_model.h"
#include "engine/physical/operator.h"
#include "gsparql/cost_model.h"
#include "gsparql/query.h"

namespace gsparql {

struct Measurement {
  engine::PlanWork work;  // of the BGPs the query ran
  double milliseconds = 0;
  uint64_t copiedBytes = 0;  // to the executor's device (the GPU's cache misses)
};

// Runs a query once on `backend`; throws gsparql::Error when it cannot.
using MeasureQuery = std::function<Measurement(const std::string& query, Backend backend)>;

// The work of every BGP in an operator tree.
engine::PlanWork workOf(const engine::Operator& root);
// The bytes its BGPs copied to an executor's device.
uint64_t copiedBytesOf(const engine::Operator& root);

Calibration calibrateWith(const std::vector<std::string>& queries, const CalibrationOptions& options,
                          const CostModel& previous, bool gpu, const MeasureQuery& measure);

}  // namespace gsparql
