-- Apply one rated game to a game's rating pool exactly once: a compare-and-set over the
-- ratings read (another event may have moved them since) plus the event's applied mark,
-- appending each player's new rating to its history (kept to its latest ARGV limit).
-- KEYS[1] r:{game}:ratings   KEYS[2] r:{game}:applied   KEYS[3] r:{game}:after
-- KEYS[3 + i] r:{game}:history:<player i>
-- ARGV[1] the event id   ARGV[2] n, the number of players
-- ARGV[3 .. 2+n] the player ids   ARGV[3+n .. 2+2n] each rating as read ('' if none)
-- ARGV[3+2n .. 2+3n] each new rating   ARGV[3+3n] what to record in KEYS[3] ('' nothing)
-- ARGV[4+3n .. 3+4n] each player's history row   ARGV[4+4n] the history's length limit
-- returns 1 applied; 0 already applied (nothing written); -1 a rating changed (read again)
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
local n = tonumber(ARGV[2])
for i = 1, n do
  local cur = redis.call('HGET', KEYS[1], ARGV[2 + i]) or ''
  if cur ~= ARGV[2 + n + i] then return -1 end
end
for i = 1, n do redis.call('HSET', KEYS[1], ARGV[2 + i], ARGV[2 + 2 * n + i]) end
redis.call('SADD', KEYS[2], ARGV[1])
if ARGV[3 + 3 * n] ~= '' then redis.call('HSET', KEYS[3], ARGV[1], ARGV[3 + 3 * n]) end
local limit = tonumber(ARGV[4 + 4 * n])
for i = 1, n do
  redis.call('RPUSH', KEYS[3 + i], ARGV[3 + 3 * n + i])
  redis.call('LTRIM', KEYS[3 + i], -limit, -1)
end
return 1
