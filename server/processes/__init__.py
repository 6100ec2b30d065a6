"""The processes on top of everything: serve (gunicorn + embedded Redis), the
scheduler runner, the bot pool, the webhook deliverer, the demo and the CLI.

A process is a loop over service methods, and nothing below imports a process;
no process reaches the store or Redis itself (a contract, docs/architecture.md).
One arrow goes further on purpose: the bot pool, the demo and the CLI are
clients of the API, through ``client_sdk`` and ``bots``, as any remote bot is.
"""
