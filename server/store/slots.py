"""Leases on a caller's open streams and long-polls: a sorted set per caller, counted in
Redis so a cap holds across every API process.

Each open stream or long-poll holds one lease, a random id scored by the time
it lapses. A lease is given back when its request ends; one that never is
(its worker was killed) lapses by itself and stops counting, so a lost
worker leaks no slot for longer than a lease's life.
"""

from __future__ import annotations

from redis import Redis

from . import keys

_TAKE = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local cap = tonumber(ARGV[3])
if cap > 0 and redis.call('ZCARD', KEYS[1]) >= cap then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(first[2]) - now
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[4])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return -1
"""

_RENEW = """
redis.call('ZADD', KEYS[1], ARGV[1] + ARGV[2], ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
"""


def take(r: Redis, subject: str, lease: str, cap: int, ttl_ms: int, now_ms: int) -> int | None:
    """Add ``lease`` to ``subject``'s leases unless it holds ``cap`` live ones already
    (``cap`` 0: no cap). None when taken; else the milliseconds until its oldest
    lease lapses at the latest."""
    left = int(r.eval(_TAKE, 1, keys.slots(subject), now_ms, ttl_ms, cap, lease))
    return None if left < 0 else left


def renew(r: Redis, subject: str, lease: str, ttl_ms: int, now_ms: int) -> None:
    """Push ``lease``'s lapse to ``ttl_ms`` from now (back in, if it had lapsed: its
    request is still open, so it counts again)."""
    r.eval(_RENEW, 1, keys.slots(subject), now_ms, ttl_ms, lease)


def give_back(r: Redis, subject: str, lease: str) -> None:
    """Drop ``lease`` (repeatable)."""
    r.zrem(keys.slots(subject), lease)


def count(r: Redis, subject: str, now_ms: int) -> int:
    """``subject``'s live leases."""
    return int(r.zcount(keys.slots(subject), f"({now_ms}", "+inf"))
