-- wrk's side of bench/wrk.ts: goes round the requests of the file WRK_REQUESTS names (header
-- lines "H<TAB>name<TAB>value", then a line a request "R<TAB>method<TAB>path<TAB>body"), each
-- thread from a point of its own, and prints what the run came to as one line of JSON.
local file = os.getenv("WRK_REQUESTS")
local threads = 0

function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end

local requests = {}
local at = 0

function init(args)
  local headers = {}
  local lines = {}
  for line in io.lines(file) do
    local fields = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do fields[#fields + 1] = field end
    if fields[1] == "H" then
      headers[fields[2]] = fields[3]
    else
      lines[#lines + 1] = fields
    end
  end
  for _, f in ipairs(lines) do
    local h = {}
    for name, value in pairs(headers) do h[name] = value end
    local body = nil
    if f[4] ~= "" then
      body = f[4]
      h["Content-Type"] = "application/json"
    end
    requests[#requests + 1] = wrk.format(f[2], f[3], h, body)
  end
  -- Threads start apart, so that they do not ask for the same page at once.
  at = math.floor((first or 0) * #requests / 2)
end

function request()
  at = at % #requests + 1
  return requests[at]
end

function done(summary, latency, _)
  local quantiles = {}
  for k = 1, 200 do quantiles[k] = string.format("%.3f", latency:percentile((k - 0.5) / 2) / 1000) end
  local e = summary.errors
  io.write(string.format('WRK {"requests":%d,"duration_us":%d,"bytes":%d,"errors":%d,"status_errors":%d,"quantiles":[%s]}\n',
    summary.requests, summary.duration, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status, table.concat(quantiles, ",")))
end
