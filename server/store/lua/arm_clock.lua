-- Set the per-seat move deadlines of a clocked game after an accepted move. A repeatable
-- step after commit_move.lua (docs/architecture.md: wake-ups and clocks follow the commit).
-- A seat that was already to move and did not just move keeps its running deadline; a
-- seat that becomes (or, having just moved, stays) to move starts a fresh turn: it starts
-- now (s:<seat>) and its deadline is now + move_seconds + its time bank left (b:<seat>,
-- else the whole bank_ms). A seat no longer to move loses its deadline and start. If the
-- clock missed a version (a crash between a commit and its arming), every seat to move
-- starts afresh.
-- KEYS[1] g:{id}:clock
-- ARGV[1] the game version the deadlines are for
-- ARGV[2] now (epoch seconds): when a fresh turn starts
-- ARGV[3] the seat that just moved, '-1' for none, '-2' to restart every seat's deadline
-- ARGV[4..] the seats to move at that version
-- returns {1, seat, deadline, start, seat, deadline, start, ...}  armed: every seat to move
--         {0}                                  no clock, or it covers this version already
if redis.call('HEXISTS', KEYS[1], 'move_seconds') == 0 then return {0} end
local version = tonumber(ARGV[1])
local cur = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if cur >= version then return {0} end
local restart = ARGV[3] == '-2' or cur ~= version - 1
local now = tonumber(ARGV[2])
local per_move = tonumber(redis.call('HGET', KEYS[1], 'move_seconds'))
local bank = tonumber(redis.call('HGET', KEYS[1], 'bank_ms') or '0')
local waiting = {}
for i = 4, #ARGV do waiting[ARGV[i]] = true end
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  local kind = string.sub(f, 1, 2)
  if (kind == 'd:' or kind == 's:') and not waiting[string.sub(f, 3)] then
    redis.call('HDEL', KEYS[1], f)
  end
end
local out = {1}
for i = 4, #ARGV do
  local seat = ARGV[i]
  local f = 'd:' .. seat
  if restart or seat == ARGV[3] or redis.call('HEXISTS', KEYS[1], f) == 0 then
    local left = tonumber(redis.call('HGET', KEYS[1], 'b:' .. seat) or bank)
    redis.call('HSET', KEYS[1], f, string.format('%.4f', now + per_move + left / 1000))
    redis.call('HSET', KEYS[1], 's:' .. seat, ARGV[2])
  end
  out[#out + 1] = seat
  out[#out + 1] = redis.call('HGET', KEYS[1], f)
  -- a turn armed before starts were kept began move_seconds before its deadline
  out[#out + 1] = redis.call('HGET', KEYS[1], 's:' .. seat)
    or string.format('%.4f', tonumber(redis.call('HGET', KEYS[1], f)) - per_move)
end
redis.call('HSET', KEYS[1], 'version', version)
return out
