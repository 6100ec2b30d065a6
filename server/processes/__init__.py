"""The processes on top of everything: serve (gunicorn + embedded Redis), the
scheduler runner, the bot pool, the webhook deliverer, the demo and the CLI.

A process may call services; nothing below imports a process.
"""
