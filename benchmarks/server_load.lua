-- wrk script for server_load.sh: each request POSTs one of the query files
-- given after "--" (application/sparql-query, TSV results), the threads
-- going through the list from different places; counts answers that are not 200.
-- With UPDATE_EVERY=N in the environment, every N-th request of a thread is
-- instead a small update (application/sparql-update): INSERT DATA of one
-- triple of the thread's own, then DELETE DATA of it, in turn.
-- With ENDPOINT=virtuoso, queries and updates are form POSTs (query=...), as
-- Virtuoso takes both, and updates write its graph <http://watdiv.org/>.
local threads = {}

local function urlencode(text)
  return (text:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

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
  virtuoso = os.getenv("ENDPOINT") == "virtuoso"
  if virtuoso then
    for i, text in ipairs(queries) do queries[i] = "query=" .. urlencode(text) end
  end
  next_query = (id * 7) % #queries
  failed = 0
  update_every = tonumber(os.getenv("UPDATE_EVERY") or "0")
  sent = 0
  updates = 0
end

function update()
  updates = updates + 1
  local form = (updates % 2 == 1) and "INSERT DATA" or "DELETE DATA"
  local triple = string.format("<http://e/load/t%d> <http://e/n> %d", id, math.floor((updates + 1) / 2))
  if virtuoso then
    return wrk.format("POST", "/sparql", {["Content-Type"] = "application/x-www-form-urlencoded"},
                      "query=" .. urlencode(form .. " { GRAPH <http://watdiv.org/> { " .. triple .. " } }"))
  end
  return wrk.format("POST", "/sparql", {["Content-Type"] = "application/sparql-update"},
                    form .. " { " .. triple .. " }")
end

function request()
  sent = sent + 1
  if update_every > 0 and sent % update_every == 0 then return update() end
  next_query = next_query % #queries + 1
  local type = virtuoso and "application/x-www-form-urlencoded" or "application/sparql-query"
  return wrk.format("POST", "/sparql", {["Content-Type"] = type, ["Accept"] = "text/tab-separated-values"},
                    queries[next_query])
end

function response(status, headers, body)
  if status ~= 200 then failed = failed + 1 end
end

function done(summary, latency, requests)
  local failures, updates = 0, 0
  for _, thread in ipairs(threads) do
    failures = failures + thread:get("failed")
    updates = updates + thread:get("updates")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("requests: %d in %.1f s, %d not 200, %d socket errors\n", summary.requests, seconds, failures,
                         summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  io.write(string.format("queries/s: %.1f\n", summary.requests / seconds))
  if updates > 0 then io.write(string.format("of them updates: about %d (%.1f/s)\n", updates, updates / seconds)) end
  io.write(string.format("latency: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", latency:percentile(50) / 1000,
                         latency:percentile(99) / 1000, latency.max / 1000))
end
