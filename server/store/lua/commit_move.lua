-- Commit one accepted move: the compare-and-set at the heart of docs/architecture.md.
-- KEYS[1] g:{id}:game     hash: version, state, status, seq
-- KEYS[2] g:{id}:events   stream: entry 0-<n> is event number n
-- KEYS[3] g:{id}:moves    hash: version a move was accepted at -> move record
-- KEYS[4] g:{id}:clock    (clocked games only) hash: the mover's bank left and latency
-- ARGV[1] the version the move was computed from (the expected current version)
-- ARGV[2] the new state JSON     ARGV[3] the new status
-- ARGV[4] the move record JSON
-- ARGV[5] '' or the mover's clock fields as JSON {"b:<seat>": ms, "l:<seat>": ms},
--         written with the move (a clocked game's time bank spent and its latency)
-- ARGV[6..] one JSON per event, in order
-- returns {1, new_version, last_event_number}  committed
--         {0, current_version, record}          stale: nothing written; record is the
--                                               move accepted at ARGV[1], or nil
--         {-1}                                  no such game
local cur = tonumber(redis.call('HGET', KEYS[1], 'version'))
if cur == nil then return {-1} end
if cur ~= tonumber(ARGV[1]) then
  return {0, cur, redis.call('HGET', KEYS[3], ARGV[1])}
end
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
for i = 6, #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[2], '0-' .. seq, 'e', ARGV[i])
end
local new = cur + 1
redis.call('HSET', KEYS[1], 'version', new, 'state', ARGV[2], 'status', ARGV[3], 'seq', seq)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
if ARGV[5] ~= '' then
  for field, value in pairs(cjson.decode(ARGV[5])) do
    redis.call('HSET', KEYS[4], field, value)
  end
end
return {1, new, seq}
