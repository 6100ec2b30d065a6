-- Apply one rated game to a game's rating pool exactly once: a compare-and-set over the
-- ratings read (another event may have moved them since) plus the event's applied mark.
-- KEYS[1] r:{game}:ratings   KEYS[2] r:{game}:applied
-- KEYS[3] (optional) r:{game}:after: the event's new ratings are recorded there too
-- ARGV[1] the event id   ARGV[2] n, the number of players
-- ARGV[3 .. 2+n] the player ids   ARGV[3+n .. 2+2n] each rating as read ('' if none)
-- ARGV[3+2n .. 2+3n] each new rating   ARGV[3+3n] (with KEYS[3]) what to record
-- returns 1 applied; 0 already applied (nothing written); -1 a rating changed (read again)
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
local n = tonumber(ARGV[2])
for i = 1, n do
  local cur = redis.call('HGET', KEYS[1], ARGV[2 + i]) or ''
  if cur ~= ARGV[2 + n + i] then return -1 end
end
for i = 1, n do redis.call('HSET', KEYS[1], ARGV[2 + i], ARGV[2 + 2 * n + i]) end
redis.call('SADD', KEYS[2], ARGV[1])
if KEYS[3] then redis.call('HSET', KEYS[3], ARGV[1], ARGV[3 + 3 * n]) end
return 1
