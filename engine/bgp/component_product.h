#pragma once
// Joins the tables of a BGP's connected components: they share no variable,
// so the result is their cartesian product (each component fills its own
// columns). With injective matching, rows that map two query vertices of
// different components to one term are dropped.
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/executor.h"
#include "engine/bgp/id_columns.h"
#include "engine/bgp/id_rows.h"

namespace gsparql::engine {

// The columns options.outputColumns selects (all by default). Products grow
// fast: stops at options.rowLimit rows, and with an error when the query is
// cancelled, times out or outgrows its memory budget.
IdColumns componentProduct(std::vector<IdRows> tables, const BoundBgp& bgp, const BgpCall& options);

}  // namespace gsparql::engine
