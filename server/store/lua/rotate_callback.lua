-- Replace the secret of a player's callback, if it has one (a DELETE may have come first).
-- KEYS[1] the player's callback hash (keys.player_callback)
-- ARGV[1] the new secret
-- Returns the URL (the callback is kept), or false when there is no callback.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
redis.call('HSET', KEYS[1], 'secret', ARGV[1])
return redis.call('HGET', KEYS[1], 'url')
