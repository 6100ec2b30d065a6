-- Count invitations against their sender's cap of open invitations, atomically.
-- KEYS[1] p:{inviter}:sent (member "<invited>|<invitation id>" -> expiry)
-- ARGV[1] now   ARGV[2] the cap   ARGV[3] the expiry   ARGV[4..] the members to add
-- returns {1, open}   added; open is the count with them
--         {0, open}   refused: the cap would be passed (open: the count without them)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
local open = redis.call('ZCARD', KEYS[1])
local n = #ARGV - 3
if open + n > tonumber(ARGV[2]) then return {0, open} end
for i = 4, #ARGV do redis.call('ZADD', KEYS[1], ARGV[3], ARGV[i]) end
return {1, open + n}
