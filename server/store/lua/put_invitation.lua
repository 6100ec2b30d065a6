-- Store one invitation for the invited player, unless that player blocks the inviter,
-- already holds as many open (unexpired) invitations as the cap allows, or holds as many
-- open ones from this inviter as one inviter's share allows.
-- KEYS[1] p:{invited}:invitations   KEYS[2] p:{invited}:blocks
-- ARGV[1] now   ARGV[2] the cap   ARGV[3] the inviter's id   ARGV[4] the invitation id
-- ARGV[5] the invitation JSON   ARGV[6] one inviter's share (0: no share)
-- returns  1   stored
--          0   refused: the invited player's cap, or the inviter's share of it
--         -1   refused: the invited player blocks the inviter
if redis.call('ZSCORE', KEYS[2], ARGV[3]) then return -1 end
local now = tonumber(ARGV[1])
local share = tonumber(ARGV[6])
local open, mine = 0, 0
for _, raw in ipairs(redis.call('HVALS', KEYS[1])) do
  local ok, inv = pcall(cjson.decode, raw)
  if ok and tonumber(inv['expires']) and tonumber(inv['expires']) >= now then
    open = open + 1
    if type(inv['from']) == 'table' and inv['from']['id'] == ARGV[3] then mine = mine + 1 end
  end
end
if open >= tonumber(ARGV[2]) then return 0 end
if share > 0 and mine >= share then return 0 end
redis.call('HSET', KEYS[1], ARGV[4], ARGV[5])
return 1
