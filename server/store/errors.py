"""Typed outcomes of the store's atomic operations (one base class for the package)."""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Base of the errors the store raises. Messages name no cards."""


class StaleVersion(StoreError):
    """The game moved on since it was read: the compare-and-set wrote nothing.

    ``accepted`` is the move record accepted at the version the caller read, if
    any, so that a retried move can be recognised as already applied.
    """

    def __init__(self, current: int, accepted: dict[str, Any] | None = None) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current
        self.accepted = accepted


class SeatTaken(StoreError):
    """The seat asked for is held by someone else."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is taken")
        self.seat = seat


class AlreadySeated(StoreError):
    """The player holds a seat and the game does not allow several."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"you already hold seat {seat} in this game")
        self.seat = seat


class NoOpenSeat(StoreError):
    """Every seat of the game is taken."""

    def __init__(self) -> None:
        super().__init__("no open seat in this game")


class GameStarted(StoreError):
    """The game has started (or is over): its seats stay taken, played by its clock."""

    def __init__(self, status: str) -> None:
        super().__init__("the game has started: its seats can no longer be left")
        self.status = status


class SeatOpen(StoreError):
    """The seat is open: nobody sits there to leave it."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is open")
        self.seat = seat


class SeatNotYours(StoreError):
    """The seat is held by another player."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is not yours")
        self.seat = seat


class SeatHeld(StoreError):
    """The seat is held for an invitation: its invitee declines the invitation instead."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is held for an invitation: decline the invitation instead")
        self.seat = seat


class GameMissing(StoreError):
    """The game's keys do not exist."""

    def __init__(self) -> None:
        super().__init__("no such game")
