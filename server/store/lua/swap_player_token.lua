-- Replace a player's token hash and, in the same step, end its callback or re-key it:
-- a callback never outlives the token that could set it (services/players.py).
-- KEYS[1] the player's hash (keys.player), KEYS[2] its callback (keys.player_callback)
-- ARGV[1] the token hash expected ('' for any), ARGV[2] the new hash (or 'revoked'),
-- ARGV[3] the callback's new secret ('' removes the callback)
-- Returns 0 when nothing changed (no such player, or its hash is not ARGV[1]); else the
-- callback's URL ('' when there was none).
local current = redis.call('HGET', KEYS[1], 'token_sha256')
if not current or (ARGV[1] ~= '' and current ~= ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'token_sha256', ARGV[2])
local url = redis.call('HGET', KEYS[2], 'url')
if not url then
  redis.call('DEL', KEYS[2])
  return ''
end
if ARGV[3] == '' then
  redis.call('DEL', KEYS[2])
else
  redis.call('HSET', KEYS[2], 'secret', ARGV[3])
end
return url
