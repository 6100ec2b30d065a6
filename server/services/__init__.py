"""The use cases, by feature. They know no HTTP: the API calls them, and so do the
processes. They orchestrate the pure layers (games, analysis, tournaments) and reach
Redis only through the functions of ``server.store`` (they send no Redis command and
build no key: tests/store/test_keys.py).

Each feature is a small class over one shared :class:`~server.services.core.Core`
(the Redis client, its scripts, the secrets, who is calling: its
:class:`~server.services.callers.Callers`), some with collaborators in modules of
their own (``games`` hands new games to ``new_games`` and play to ``moves``;
``ladders`` has ``ladder_stats``, ``ladder_pages``, ``ladder_plan`` and
``ladder_entries``; ``tournaments`` has ``tournament_pages``, which has
``crosstable``), and
:class:`~server.services.bundle.Services` builds them all, as ``players``,
``invitations``, ``games``, ``clocks``, ``slots``, ``feeds``, ``turn_streams``
(``turnstream``), ``replays``, ``archive``, ``lobby``, ``health``, ``tournaments``,
``events`` (an organiser's roster, withdrawals and voided tables), ``ratings``,
``ladders``, ``rounds`` (a running tournament driven, for the
scheduler), ``matches`` (a match's duplicate boards driven until its sequential test
decides, for the scheduler), ``ladder_play`` (a ladder's matches driven, for the scheduler, and its
books on play, through the play hook of ``core``), ``apps``, ``callbacks`` and
``dispatch`` (a player's callback URL, and the dispatcher's queue of callback turns,
both in ``callbacks``), ``player_bots`` (a player's own bots: hosted, callback or
connected, with ``bot_uploads`` checking a hosted bot's code) and ``hosted`` (the
sandbox workers' queue of hosted turns), ``ratelimits`` (``ratelimit``), ``metrics``, ``visitors``
and ``deliveries`` (the webhook queue, in ``notifications``, for the webhook
deliverer).

The other modules are shared by the features: ``errors`` holds every exception
the API maps to a status (the engines' and the store's re-exported); ``views``
builds what callers see of a game, ``boards`` what a duplicate board's tables may
see, ``brackets`` what they see of a tournament; ``bots`` resolves ``"bot:<name>"``
seats, ``names`` validates display names (with ``confusables``, the look-alike
letters), ``notifications`` makes webhook deliveries and holds the queue's use
cases, ``par`` computes each finished game's par once, ``targets`` guards outbound
addresses, ``wire`` encodes JSON and server-sent events.
"""
