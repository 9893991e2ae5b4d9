-- wrk script for server_load.sh: each request POSTs one of the query files
-- given after "--" (application/sparql-query, TSV results), the threads
-- going through the list from different places; counts answers that are not 200.
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  queries = {}
  for _, file in ipairs(args) do
    local f = assert(io.open(file, "r"))
    table.insert(queries, f:read("*a"))
    f:close()
  end
  next_query = (id * 7) % #queries
  failed = 0
end

function request()
  next_query = next_query % #queries + 1
  return wrk.format("POST", "/sparql", {["Content-Type"] = "application/sparql-query",
                                        ["Accept"] = "text/tab-separated-values"}, queries[next_query])
end

function response(status, headers, body)
  if status ~= 200 then failed = failed + 1 end
end

function done(summary, latency, requests)
  local failures = 0
  for _, thread in ipairs(threads) do failures = failures + thread:get("failed") end
  local seconds = summary.duration / 1e6
  io.write(string.format("requests: %d in %.1f s, %d not 200, %d socket errors\n", summary.requests, seconds, failures,
                         summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  io.write(string.format("queries/s: %.1f\n", summary.requests / seconds))
  io.write(string.format("latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", latency:percentile(50) / 1000,
                         latency:percentile(99) / 1000, latency.max / 1000))
end
