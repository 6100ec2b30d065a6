-- Replace an app's token hash and, in the same step, remove its webhooks or keep them:
-- a webhook never outlives the token that could add it unless asked (services/apps.py).
-- KEYS[1] the app's hash (keys.app), KEYS[2] its webhooks (keys.app_webhooks)
-- ARGV[1] the token hash expected ('' for any), ARGV[2] the new hash (or 'revoked'),
-- ARGV[3] '1' keeps the webhooks, '' removes them
-- Returns -1 when nothing changed (no such app, or its hash is not ARGV[1]); else how
-- many webhooks the app had.
local current = redis.call('HGET', KEYS[1], 'token_sha256')
if not current or (ARGV[1] ~= '' and current ~= ARGV[1]) then
  return -1
end
redis.call('HSET', KEYS[1], 'token_sha256', ARGV[2])
local count = redis.call('HLEN', KEYS[2])
if ARGV[3] == '' then
  redis.call('DEL', KEYS[2])
end
return count
