-- Queue the turns of one committed version for the dispatchers (callback players only).
-- KEYS[1] the set of players with a callback (keys.callback_players)
-- KEYS[2] the stream of turns to dispatch (keys.callback_turns)
-- KEYS[3..] per mover, the marker of its turn (keys.callback_queued): queued once
-- ARGV[1] game id, ARGV[2] version, ARGV[3] marker TTL (s), then seat, player pairs
-- (in KEYS order from KEYS[3])
-- Returns the number of turns queued (0: no callback player to move, or queued already).
local queued = 0
for k = 3, #KEYS do
  local i = 4 + 2 * (k - 3)
  if redis.call('SISMEMBER', KEYS[1], ARGV[i + 1]) == 1
      and redis.call('SET', KEYS[k], '1', 'NX', 'EX', ARGV[3]) then
    redis.call('XADD', KEYS[2], '*', 'game', ARGV[1], 'version', ARGV[2],
               'seat', ARGV[i], 'player', ARGV[i + 1])
    queued = queued + 1
  end
end
return queued
