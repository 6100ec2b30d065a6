-- Queue the turns of one committed version for the dispatchers (callback players only).
-- KEYS[1] the set of players with a callback (keys.callback_players)
-- KEYS[2] the stream of turns to dispatch (keys.callback_turns)
-- KEYS[3] the marker of this version (keys.callback_queued): queued once
-- ARGV[1] game id, ARGV[2] version, ARGV[3] marker TTL (s), then seat, player pairs
-- Returns the number of turns queued (0: no callback player to move, or queued already).
local hits = {}
for i = 4, #ARGV, 2 do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i + 1]) == 1 then
    hits[#hits + 1] = i
  end
end
if #hits == 0 then
  return 0
end
if not redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[3]) then
  return 0
end
for _, i in ipairs(hits) do
  redis.call('XADD', KEYS[2], '*', 'game', ARGV[1], 'version', ARGV[2],
             'seat', ARGV[i], 'player', ARGV[i + 1])
end
return #hits
