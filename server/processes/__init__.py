"""The processes on top of everything: serve (gunicorn running the API, with an
embedded Redis unless ``REDIS_URL`` is set), the scheduler runner, the bot pool, the
webhook deliverer, the callback dispatcher, the demo and the CLI; beside them the one
outbound stack the deliverer and the dispatcher call out through (``outbound``, its
deadline in ``deadline``) and what the long-running ones share (``daemon``).

The scheduler, the deliverer and the dispatcher are loops over service methods;
nothing below imports a process, and no process reaches the store or Redis itself (a
contract, docs/architecture.md). One arrow goes further on purpose: the bot pool, the
demo and the CLI are clients of the API, through ``client_sdk`` and ``bots``, as any
remote bot is (the bot pool and the demo read only the engines' registry besides).
"""
