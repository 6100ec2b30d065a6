"""The use cases, one module per feature. They know no HTTP: the API calls them,
and so do the processes. They orchestrate the pure layers (games, analysis,
tournaments) and the store.

Each feature is a small class over one shared :class:`~server.services.core.Core`
(the Redis client, its scripts, the secrets, who is calling):
``players``, ``games``, ``clocks``, ``feeds``, ``replays``, ``lobby``,
``tournaments``, ``ratings``, ``apps``, ``ratelimit`` and ``metrics``;
:class:`~server.services.bundle.Services` builds them all. ``errors`` holds
every exception a caller may have to map; ``views`` builds what callers see of
a game, ``brackets`` what they see of a tournament.
"""
