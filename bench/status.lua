-- Counts the status codes wrk received, so a benchmark notices an endpoint that answers
-- differently from what it measures (a 200 where a 204 was expected, a 500, a 403...).
-- Prints one line at the end: "STATUS 204=12345 500=2".
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  counts = {}
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local part = thread:get("counts") or {}
    for status, n in pairs(part) do
      total[status] = (total[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(total) do
    table.insert(parts, tostring(status) .. "=" .. tostring(n))
  end
  table.sort(parts)
  io.write("STATUS " .. table.concat(parts, " ") .. "\n")
end
