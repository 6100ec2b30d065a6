-- Free a seat of a game that has not started, atomically with the checks that the
-- game is still waiting and that the seat is the caller's (the admin may free any).
-- KEYS[1] g:{id}:game    hash: status
-- KEYS[2] g:{id}:seats   hash: seat -> JSON {"player_id", "name"} (+ "pending")
-- ARGV[1] the seat       ARGV[2] the caller's player id, or '' for the admin
-- The game's version is left as it is: no move was made, so a retried move's
-- version keeps its meaning.
-- returns {1, holder, left}  freed; holder: the player id that sat there;
--                            left: how many seats that player still holds here
--         {-1}               no such game
--         {-4, status}       the game has started (or is over): seats stay taken
--         {-5}               the seat is open: nobody to leave it
--         {-6}               the seat is someone else's
--         {-7}               the seat is held for an invitation: decline it instead
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-1} end
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then
  if status ~= 'waiting' then return {-4, status} end
  return {-5}
end
local entry = cjson.decode(raw)
if ARGV[2] ~= '' and entry.player_id ~= ARGV[2] then return {-6} end
if status ~= 'waiting' then return {-4, status} end
if entry.pending then return {-7} end
redis.call('HDEL', KEYS[2], ARGV[1])
local left = 0
local all = redis.call('HVALS', KEYS[2])
for i = 1, #all do
  if cjson.decode(all[i]).player_id == entry.player_id then left = left + 1 end
end
return {1, entry.player_id, left}
