-- A timeout applied by the scheduler: the default move (or the forfeit) committed exactly
-- like commit_move.lua, together with the timeout count, in one atomic step, so a timeout
-- is counted once and only with the move it caused.
-- KEYS[1] g:{id}:game   KEYS[2] g:{id}:events   KEYS[3] g:{id}:moves   KEYS[4] g:{id}:clock
-- ARGV[1] the version the timeout was computed from (the expected current version)
-- ARGV[2] the new state JSON     ARGV[3] the new status
-- ARGV[4] the move record JSON   ARGV[5] the seat that timed out
-- ARGV[6] the forfeit record JSON, or '' for a default move
-- ARGV[7..] one JSON per event, in order
-- returns {1, new_version, last_event_number}  committed
--         {0, current_version}                 stale: nothing written
--         {-1}                                 no such game
local cur = tonumber(redis.call('HGET', KEYS[1], 'version'))
if cur == nil then return {-1} end
if cur ~= tonumber(ARGV[1]) then return {0, cur} end
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
for i = 7, #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[2], '0-' .. seq, 'e', ARGV[i])
end
local new = cur + 1
redis.call('HSET', KEYS[1], 'version', new, 'state', ARGV[2], 'status', ARGV[3], 'seq', seq)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
-- the clock: one more timeout for the seat, counted with the move it caused, and its time
-- bank spent (it ran to its deadline, per-move time and bank). Its deadlines are set
-- afterwards by arm_clock.lua, the same repeatable step that follows every accepted move.
redis.call('HINCRBY', KEYS[4], 't:' .. ARGV[5], 1)
redis.call('HSET', KEYS[4], 'b:' .. ARGV[5], 0)
if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], 'forfeit', ARGV[6]) end
return {1, new, seq}
