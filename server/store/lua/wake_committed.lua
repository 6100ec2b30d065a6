-- Wake the next movers with their rendered turns, if the move they follow was committed.
-- It rides in the commit's pipeline, after commit_move.lua, on one Redis server only (on
-- a cluster the players' keys live in other slots, and the wake-up follows the reply).
-- A commit that lost the race must not push the turns it rendered: they would show a
-- move that never happened.
-- KEYS[1] g:{id}:moves   hash: version a move was accepted at -> move record
-- KEYS[2..] p:{player}:wake, one per player to wake
-- ARGV[1] the version the move was computed from   ARGV[2] its move record JSON
-- ARGV[3] the game id   ARGV[4] the new version   ARGV[5] the wake-ups kept per player
-- ARGV[6..] per player to wake, in KEYS order: its turns JSON, or '' (a bare wake-up)
-- returns 1 woken; 0 the move was not committed (nothing written)
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
for i = 2, #KEYS do
  local turns = ARGV[4 + i]
  if turns == '' then
    redis.call('XADD', KEYS[i], 'MAXLEN', ARGV[5], '*', 'g', ARGV[3])
  else
    redis.call('XADD', KEYS[i], 'MAXLEN', ARGV[5], '*', 'g', ARGV[3], 't', turns, 'v', ARGV[4])
  end
end
return 1
