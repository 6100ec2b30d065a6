-- Claim the webhook deliveries that are due, leasing each one for a while.
-- KEYS[1] wh:{q}:due (zset: delivery id -> due time)   KEYS[2] wh:{q}:pending (hash)
-- ARGV[1] now (epoch s)   ARGV[2] lease (s)   ARGV[3] at most this many
-- returns {id1, json1, id2, json2, ...}; a claimed id is pushed to now + lease, so a
-- deliverer that dies mid-send leaves it to be claimed again once the lease is over.
-- An id whose record is gone (already delivered) is dropped from the due set.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
local until_ = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, id in ipairs(due) do
  local body = redis.call('HGET', KEYS[2], id)
  if body then
    redis.call('ZADD', KEYS[1], until_, id)
    out[#out + 1] = id
    out[#out + 1] = body
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
