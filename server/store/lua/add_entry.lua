-- Enter one entry in a tournament, atomically with the checks that entries are open, that
-- no player is entered twice and that the entry has the tournament's seats per entry
-- (fixed by the tournament, or else by its first entry).
-- KEYS[1] t:{id}   KEYS[2] t:{id}:entries   KEYS[3] t:{id}:players
-- ARGV[1] the entry JSON   ARGV[2] its number of players   ARGV[3..] the player ids
-- returns {1, entry_id}   entered (ids are e1, e2, ... in seed order)
--         {-1}            no such tournament
--         {-2, status}    entries are closed (status 'closed': open, registration closed)
--         {-3, player}    that player is already entered
--         {-4, n}         an entry of this tournament has n players
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-1} end
if status ~= 'open' then return {-2, status} end
if redis.call('HGET', KEYS[1], 'registration') == 'closed' then return {-2, 'closed'} end
for i = 3, #ARGV do
  if redis.call('SISMEMBER', KEYS[3], ARGV[i]) == 1 then return {-3, ARGV[i]} end
end
local n = redis.call('HGET', KEYS[1], 'seats_per_entry')
if n and n ~= ARGV[2] then return {-4, tonumber(n)} end
redis.call('HSET', KEYS[1], 'seats_per_entry', ARGV[2])
local id = 'e' .. redis.call('HINCRBY', KEYS[1], 'next_entry', 1)
redis.call('HSET', KEYS[2], id, ARGV[1])
for i = 3, #ARGV do redis.call('SADD', KEYS[3], ARGV[i]) end
return {1, id}
