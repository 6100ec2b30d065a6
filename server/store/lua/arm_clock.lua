-- Set the per-seat move deadlines of a clocked game after an accepted move. A repeatable
-- step after commit_move.lua (docs/architecture.md: wake-ups and clocks follow the commit).
-- A seat that was already to move and did not just move keeps its running deadline; a
-- seat that becomes (or, having just moved, stays) to move gets the fresh deadline; a seat
-- no longer to move loses its deadline. If the clock missed a version (a crash between a
-- commit and its arming), every seat to move starts afresh.
-- KEYS[1] g:{id}:clock
-- ARGV[1] the game version the deadlines are for
-- ARGV[2] a fresh deadline (epoch seconds: now + move_seconds)
-- ARGV[3] the seat that just moved, '-1' for none, '-2' to restart every seat's deadline
-- ARGV[4..] the seats to move at that version
-- returns {1, seat, deadline, seat, deadline, ...}  armed; every seat to move with its deadline
--         {0}                                       no clock, or it covers this version already
if redis.call('HEXISTS', KEYS[1], 'move_seconds') == 0 then return {0} end
local version = tonumber(ARGV[1])
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if cur >= version then return {0} end
local restart = ARGV[3] == '-2' or cur ~= version - 1
local waiting = {}
for i = 4, #ARGV do waiting['d:' .. ARGV[i]] = true end
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, 2) == 'd:' and not waiting[f] then redis.call('HDEL', KEYS[1], f) end
end
local out = {1}
for i = 4, #ARGV do
  local f = 'd:' .. ARGV[i]
  if restart or ARGV[i] == ARGV[3] or redis.call('HEXISTS', KEYS[1], f) == 0 then
    redis.call('HSET', KEYS[1], f, ARGV[2])
  end
  out[#out + 1] = ARGV[i]
  out[#out + 1] = redis.call('HGET', KEYS[1], f)
end
redis.call('HSET', KEYS[1], 'version', version)
return out
