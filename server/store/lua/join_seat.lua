-- Take an open seat, atomically with the checks that it is open and that the
-- player holds no other seat (unless the game allows several).
-- KEYS[1] g:{id}:game    hash: status
-- KEYS[2] g:{id}:seats   hash: seat -> JSON {"player_id", "name"} (+ "pending": true while
--                         held for an invitation: taken, but the game waits for it)
-- ARGV[1] the seat wanted, or -1 for the lowest open seat
-- ARGV[2] player id      ARGV[3] the seat's JSON
-- ARGV[4] '1' if one player may hold several seats, else '0'
-- ARGV[5] number of seats of the game
-- returns {1, seat, status}  joined; status becomes 'active' once every seat is taken
--         {0, seat}          the seat wanted is taken
--         {-1}               no such game
--         {-2, seat}         the player already holds seat and may not take another
--         {-3}               no open seat left
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-1} end
local n = tonumber(ARGV[5])
if ARGV[4] ~= '1' then
  local seats = redis.call('HGETALL', KEYS[2])
  for i = 1, #seats, 2 do
    if cjson.decode(seats[i + 1]).player_id == ARGV[2] then
      return {-2, tonumber(seats[i])}
    end
  end
end
local seat = tonumber(ARGV[1])
if seat < 0 then
  for s = 0, n - 1 do
    if redis.call('HEXISTS', KEYS[2], s) == 0 then seat = s; break end
  end
  if seat < 0 then return {-3} end
elseif redis.call('HEXISTS', KEYS[2], seat) == 1 then
  return {0, seat}
end
redis.call('HSET', KEYS[2], seat, ARGV[3])
if redis.call('HLEN', KEYS[2]) == n then
  local held = false
  local all = redis.call('HVALS', KEYS[2])
  for i = 1, #all do
    if cjson.decode(all[i]).pending then held = true; break end
  end
  if not held then
    status = 'active'
    redis.call('HSET', KEYS[1], 'status', status)
  end
end
return {1, seat, status}
