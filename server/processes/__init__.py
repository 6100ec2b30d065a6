"""The processes on top of everything: serve (gunicorn + embedded Redis), the
scheduler runner, the bot pool, the webhook deliverer, the demo and the CLI.

A process may call services; nothing below imports a process. Two arrows go
further on purpose (docs/architecture.md): the scheduler and the webhook deliverer
also call store functions (a contract keeps every other process off the store),
and the bot pool, the demo and the CLI are clients of the API, through
``client_sdk`` and ``bots``, as any remote bot is.
"""
