"""The credential commands: ``token rotate|revoke`` (a player's or an app's token) and
``callback set|show|rotate|remove`` (the player's callback and its secret)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

from ..client import Client
from ..errors import ParlourError
from .options import Subparsers, add_server


def cmd_token(args: argparse.Namespace) -> int:
    """``token rotate|revoke``: print the new token, or revoke; the exit status."""
    if not args.token:
        print(f"a token is needed: --token T or {args.token_env}", file=sys.stderr)
        return 2
    with Client(args.server, args.token) as client:
        tokens = client.tokens
        try:
            if args.token_command == "rotate":
                new: Mapping[str, Any]
                if args.app:
                    new = tokens.rotate_app(args.app, args.keep_webhooks)
                elif args.player:
                    new = tokens.rotate_player(args.player, args.keep_callback)
                else:
                    new = tokens.rotate(args.keep_callback)
                print(new["token"])
                print(f"{new['id']}: the token above is shown once; the old one is dead",
                      file=sys.stderr)  # fmt: skip
                _say_callback(new.get("callback"))
                _say_webhooks(new.get("webhooks"))
            elif args.app:
                tokens.revoke_app(args.app)
            elif args.player:
                tokens.revoke_player(args.player)
            else:
                tokens.revoke()
        except ParlourError as exc:
            print(f"token {args.token_command} failed: {exc}", file=sys.stderr)
            return 1
    return 0


def _say_callback(callback: Mapping[str, Any] | None) -> None:
    """What a rotation did to the player's callback, on standard error."""
    if not callback:
        return
    if callback.get("kept"):
        print(f"callback {callback['url']} kept; its new secret (shown once): "
              f"{callback['secret']}", file=sys.stderr)  # fmt: skip
    else:
        print(f"callback {callback['url']} removed with the old token: set it again with "
              "`parlour-bot callback set URL`", file=sys.stderr)  # fmt: skip


def _say_webhooks(webhooks: object) -> None:
    """What an app token's rotation did to the app's webhooks, on standard error."""
    if not isinstance(webhooks, Mapping) or not webhooks.get("count"):
        return
    if webhooks.get("kept"):
        print(f"{webhooks['count']} webhook(s) kept: list them and remove any you did not add",
              file=sys.stderr)  # fmt: skip
    else:
        print(f"{webhooks['count']} webhook(s) removed with the old token: add them again",
              file=sys.stderr)  # fmt: skip


def add_token_command(sub: Subparsers[argparse.ArgumentParser], token_env: str) -> None:
    """Add ``token rotate|revoke`` to ``sub``; the token defaults to ``$token_env``."""
    token = sub.add_parser("token", help="rotate or revoke a token")
    actions = token.add_subparsers(dest="token_command", required=True)
    for name, text in (
        ("rotate", "print a new token; the old one stops working at once"),
        ("revoke", "the token stops working at once"),
    ):
        action = actions.add_parser(name, help=text)
        add_server(action)
        action.add_argument(
            "--token", default=os.environ.get(token_env), help=f"your token (env {token_env})"
        )
        whose = action.add_mutually_exclusive_group()
        whose.add_argument("--player", help="another player's token (admin)")
        whose.add_argument("--app", help="an app's token (the app itself, or the admin)")
        if name == "rotate":
            action.add_argument(
                "--keep-callback",
                action="store_true",
                help="keep the player's callback, with a new secret (printed once); "
                "by default it is removed with the old token",
            )
            action.add_argument(
                "--keep-webhooks",
                action="store_true",
                help="with --app: keep the app's webhooks (list them and remove any you "
                "did not add); by default they are removed with the old token",
            )
        action.set_defaults(
            func=cmd_token, token_env=token_env, keep_callback=False, keep_webhooks=False
        )


def cmd_callback(args: argparse.Namespace) -> int:
    """``callback set URL|show|rotate|remove``: the player's callback; the exit status.

    ``set`` and ``rotate`` print the new secret alone on stdout, once (the server
    shows it only then); the rest goes to stderr.
    """
    if not args.token:
        print("a token is needed: --token T or PARLOUR_TOKEN", file=sys.stderr)
        return 2
    with Client(args.server, args.token) as client:
        players = client.players
        try:
            if args.callback_command in ("set", "rotate"):
                new = (
                    players.set_callback(args.url)
                    if args.callback_command == "set"
                    else players.rotate_callback_secret()
                )
                print(new["secret"])
                print(f"callback {new['url']}: the secret above is shown once", file=sys.stderr)
            elif args.callback_command == "show":
                now = players.callback()
                print(f"{now['url']} (secret ...{now['secret_hint']}, since {now['since']})")
            else:
                players.remove_callback()
        except ParlourError as exc:
            print(f"callback {args.callback_command} failed: {exc}", file=sys.stderr)
            return 1
    return 0


def add_callback_command(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``callback set URL|show|rotate|remove`` to ``sub`` (docs/callbacks.md)."""
    callback = sub.add_parser("callback", help="the URL the server POSTs your turns to")
    actions = callback.add_subparsers(dest="callback_command", required=True)
    for name, text in (
        ("set", "set or replace the callback; print its new secret (shown once)"),
        ("show", "the callback's URL, the secret's last characters, since when"),
        ("rotate", "print a new secret; the old one stops at once"),
        ("remove", "the server stops calling; streams and long-polls play again"),
    ):
        action = actions.add_parser(name, help=text)
        if name == "set":
            action.add_argument("url", help="the bot's public https:// address")
        add_server(action)
        action.add_argument(
            "--token",
            default=os.environ.get("PARLOUR_TOKEN"),
            help="your token (env PARLOUR_TOKEN)",
        )
        action.set_defaults(func=cmd_callback)
