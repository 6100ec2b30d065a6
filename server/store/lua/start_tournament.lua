-- Close the entries and start a tournament, if its entries are still those the first
-- round was checked with.
-- KEYS[1] t:{id}   KEYS[2] t:{id}:entries
-- ARGV[1] the start time (epoch seconds)   ARGV[2] the number of entries checked
-- ARGV[3] the number of games the tournament is planned to play ('' if not known)
-- ARGV[4] '1' if every player of every entry consented, else '0'
-- returns 1 started; -1 no such tournament; -2 not open (already started);
--         -3 the entries changed since they were read (check again)
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return -1 end
if status ~= 'open' then return -2 end
if redis.call('HLEN', KEYS[2]) ~= tonumber(ARGV[2]) then return -3 end
redis.call('HSET', KEYS[1], 'status', 'running', 'started', ARGV[1], 'games_planned', ARGV[3],
  'consented', ARGV[4])
return 1
