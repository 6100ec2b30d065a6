"""The engine contract every game implements.

A game module exposes one :class:`Game` (built by :func:`game_record`) and a
``State`` subclass of :class:`BaseState`. The base class owns what is the
same for every game, written once:

* a new game: options parsed, preset deals checked, the first deal dealt
  (:meth:`BaseState.new`, the registry's ``new_state``);
* turn order and "game over" checks come before any rule check, and every rule
  check comes before any mutation, so :meth:`BaseState.apply` never
  half-applies a move;
* ``legal_moves`` is the one source of truth for legality: ``apply`` accepts a
  move exactly when it is in that list, and only then asks the game to explain
  a refusal;
* the view envelope (whose turn, the seat's legal moves, the scores, the
  result, the seat's hand) around the game's own body; the body fails closed:
  :meth:`BaseState.state_view` has no default;
* a compact form of the moves for simulations (:meth:`BaseState.legal_actions`,
  :meth:`BaseState.apply_action`): by default the moves themselves, so every
  game has it; a game may give its actions a smaller form, with ``legal_moves``
  and ``apply`` defined on top of them so that its rules exist once.

Nothing here (or anywhere in ``server.games``) does I/O, reads a clock or uses
the global RNG; everything a rule needs is in the state.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from .cards import shuffle
from .wire import Wire

Seat = int
Card = str
Move = dict[str, Any]


class GameError(ValueError):
    """Base of every error the engines raise. Messages never name hidden cards."""


class MalformedMove(GameError):
    """The move is not a move of this game at all (bad shape, unknown card string)."""


class IllegalMove(GameError):
    """A well-formed move the rules do not allow now.

    ``legal_moves`` is attached so that the API can show the caller what it may
    do instead; it is always the caller's own list, never another seat's.
    """

    def __init__(self, reason: str, legal_moves: list[Move] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.legal_moves = legal_moves or []


class NotYourTurn(GameError):
    """The seat is not among those whose action is awaited."""

    def __init__(self, seat: Seat | None) -> None:
        super().__init__("it is not your turn" if seat is not None else "spectators cannot move")
        self.seat = seat


class GameOver(GameError):
    """No move is accepted once the game has an outcome."""

    def __init__(self) -> None:
        super().__init__("the game is over")


class InvalidOptions(GameError):
    """Unknown option, or a value out of range. ``problems`` lists every one."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in problems.items()))
        self.problems = dict(problems)


class InvalidDeal(GameError):
    """A preset deal is wrong. ``problems`` lists every problem, not only the first."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


_PARSED_OPTIONS: dict[tuple[Any, ...], Any] = {}
"""Parsed options by game class and raw options: a simulation starts thousands of games
with the same options, and every game's parsed options are immutable (a frozen
dataclass whose derived tables are built once per object), so states share them."""
_PARSED_OPTIONS_MAX = 256


def _remember(key: tuple[Any, ...], parsed: Any) -> None:
    """Keep ``parsed`` for ``key``; past the bound the oldest option sets make room (a
    copy of the keys: other threads may be adding theirs)."""
    excess = len(_PARSED_OPTIONS) + 1 - _PARSED_OPTIONS_MAX
    for oldest in list(_PARSED_OPTIONS)[: max(0, excess)]:
        _PARSED_OPTIONS.pop(oldest, None)
    _PARSED_OPTIONS[key] = parsed


def _options_key(cls: type, options: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    """A hashable key for ``options`` (each value with its type: ``True`` is not ``1``),
    or None when they have none (unhashable values, keys that do not sort)."""
    if not options:
        return (cls,)
    try:
        key = (cls, *sorted((k, type(v), v) for k, v in options.items()))
        hash(key)
    except (TypeError, AttributeError):
        return None
    return key


OptionSpec = Mapping[str, Any]
"""One option: ``default``, then ``choices`` or integer ``min``/``max``, and a ``doc``.
An optional ``invalid`` replaces the generic message for a bad value."""


def check_options(
    raw: Mapping[str, Any] | None, spec: Mapping[str, OptionSpec]
) -> tuple[dict[str, str], dict[str, Any]]:
    """Every problem with ``raw`` against ``spec``, and the values with defaults filled in.

    One pass reports every unknown option and every bad value, so a client
    fixes its request once instead of once per problem. An option whose
    default is null may be null (the game then decides, e.g. from the seed).
    Games add their cross-option checks to the problems returned.

    >>> spec = {"deals": {"default": 4, "min": 1, "max": 20},
    ...         "rules": {"default": "a", "choices": ["a", "b"]}}
    >>> check_options({"deals": 0, "rules": "c", "x": 1}, spec)[0] == {
    ...     "x": "unknown option", "deals": "must be between 1 and 20",
    ...     "rules": "must be one of a, b"}
    True
    >>> check_options(None, spec)
    ({}, {'deals': 4, 'rules': 'a'})
    """
    raw = dict(raw or {})
    problems = {name: "unknown option" for name in sorted(raw.keys() - spec.keys())}
    values: dict[str, Any] = {}
    for name, option in spec.items():
        value = raw.get(name, option["default"])
        values[name] = value
        if value is None and option["default"] is None:
            continue
        if "choices" in option:
            bad = isinstance(value, bool) or value not in option["choices"]
            message = f"must be one of {', '.join(map(str, option['choices']))}"
        elif isinstance(value, bool) or not isinstance(value, int):
            bad, message = True, "must be an integer"
        else:
            bad = not option["min"] <= value <= option["max"]
            message = f"must be between {option['min']} and {option['max']}"
        if bad:
            problems[name] = option.get("invalid", message)
    return problems, values


OptionsCheck = Callable[[dict[str, str], dict[str, Any]], None]
"""A game's checks across options: adds to the problems, may fill in the values of options
whose default depends on others."""

OptionsT = TypeVar("OptionsT")


def read_options(
    raw: Mapping[str, Any] | None,
    spec: Mapping[str, OptionSpec],
    make: Callable[..., OptionsT],
    check: OptionsCheck | None = None,
) -> OptionsT:
    """The one options parser of every game: :func:`check_options` against the game's
    ``spec``, then its ``check`` across options, then ``make(**values)`` (its options
    dataclass).

    Raises:
        InvalidOptions: naming every unknown option and every bad value.

    >>> read_options({"deals": 2}, {"deals": {"default": 4, "min": 1, "max": 20}}, dict)
    {'deals': 2}
    """
    problems, values = check_options(raw, spec)
    if check is not None:
        check(problems, values)
    if problems:
        raise InvalidOptions(problems)
    return make(**values)


_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))
_FIELD_NAMES: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def options_dict(options: Any) -> dict[str, Any]:
    """``dataclasses.asdict`` of an options dataclass, fast when every field is a scalar.

    ``asdict`` recurses and copies each value; options are saved with every
    state (``to_dict``), and a search or a conformance sweep saves thousands.
    A field that is not a scalar falls back to ``asdict`` (same result either way).
    """
    known = _FIELD_NAMES.get(type(options))
    if known is None:
        names = tuple(f.name for f in dataclasses.fields(options))
        if not names:
            return {}
        known = _FIELD_NAMES[type(options)] = (names, operator.attrgetter(*names))
    names, values_of = known
    values = values_of(options)
    if len(names) == 1:
        values = (values,)
    if _SCALAR_TYPES.issuperset(map(type, values)):
        return dict(zip(names, values, strict=True))
    return dataclasses.asdict(options)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with its own audience.

    ``visible_to=None`` means public; otherwise only those seats may see it.
    :func:`visible` is the one filter every feed (events, long-poll, replay,
    logs) goes through.
    """

    kind: str
    data: dict[str, Any]
    visible_to: frozenset[Seat] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": self.data,
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        vis = d.get("visible_to")
        return cls(d["kind"], d["data"], None if vis is None else frozenset(vis))


def visible(event: Event, seat: Seat | None) -> bool:
    """May ``seat`` (``None`` = spectator) see ``event``?"""
    return event.visible_to is None or (seat is not None and seat in event.visible_to)


class Termination(enum.Enum):
    """Why a game ended."""

    TARGET_REACHED = "target_reached"
    """One side reached the target after a deal's scoring (Concerto C20, C22)."""
    DEALS_EXHAUSTED = "deals_exhausted"
    """The last deal was played; the higher total wins (Concerto C21)."""
    MATCH_TARGET_REACHED = "match_target_reached"
    """A side reached the match target after a deal (Concerto C23)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``scores`` has one entry per seat (in partnership games each seat shows its
    side's score). ``winners`` is empty for a draw.
    """

    termination: Termination
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "scores": list(self.scores),
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Outcome:
        return cls(Termination(d["termination"]), tuple(d["scores"]), tuple(d["winners"]))


class BaseState:
    """Template for a game state. Subclasses implement the rules only.

    The base class builds the rest from them, once for every game: the options
    (:meth:`parse_options`), a new game (:meth:`new`), the checks before a move
    (:meth:`apply`: game over, turn, shape, legality, in that order), the view envelope
    (:meth:`view`) and a default compact form for simulations (:meth:`legal_actions`,
    :meth:`apply_action`). A game does not override the first four; one that wants
    speed overrides the hooks below that say it may.

    Must implement (each raises ``NotImplementedError`` here):

    * class attributes ``game`` (the id), ``option_specs`` (the options' specs) and
      ``options_type`` (the frozen dataclass they are parsed into); ``parse_deals``
      (a static method: preset deals → presets, raises InvalidDeal);
    * ``__init__(options, seed, presets)``, ``_new_deal`` and ``opening_events``;
    * the rules: ``to_move``, ``outcome``, ``normalize_move``, ``_legal_moves`` and
      ``_apply`` (the move's rules, with its events);
    * what may be seen: ``state_view`` (fails closed: no default), ``seat_scores``,
      ``reveal``;
    * persistence and worlds: ``to_dict``, ``from_dict``, ``clone``, ``determinize``
      and ``_public_from_view`` (for :meth:`from_view`);
    * the class attribute ``actions`` (default: none): the game's fixed action space,
      every action ``legal_actions`` can give at a place (its id) that never changes.

    May override (documented defaults):

    * ``_check_options_together``: checks across options (default: none);
    * ``_explain_illegal``: why a move is refused (default: a generic sentence);
    * ``is_over``: default ``outcome() is not None``;
    * fast paths that must agree with the rules above: ``_is_legal`` (default:
      membership in ``_legal_moves``), ``_apply_quietly`` (default: ``_apply``, its
      events dropped), ``legal_actions``/``apply_action``/``action_kinds``/
      ``legal_actions_by_kind`` (default: the moves themselves, with :meth:`apply`'s
      checks), ``legal_action_ids`` (default: :meth:`legal_actions` looked up in
      ``action_ids`` and sorted) and ``public_options`` (default: the options
      dataclass as a dict).
      ``tests/games/test_engine_fast_paths.py`` holds each fast path to its rule.
    """

    game: ClassVar[str]
    option_specs: ClassVar[Mapping[str, OptionSpec]]
    """Each option's spec (:data:`OptionSpec`), as ``GET /v1/rules`` serves them."""
    options_type: ClassVar[Callable[..., Any]]
    """Builds the parsed options from every option's value (a frozen dataclass)."""
    num_seats: int
    options: Any
    """The game's options, every default filled in (a frozen dataclass)."""
    hands: list[list[str]]
    """Each seat's hand, private to that seat."""
    seed: str
    """Secret: the deals still to come are drawn from it."""
    presets: list[dict[str, Any]]
    """Secret: the preset deals, those still to come included."""

    @classmethod
    def parse_options(cls, raw: Mapping[str, Any] | None) -> Any:
        """Options as a client sent them → the game's options (:func:`read_options` with
        the game's ``option_specs``, ``options_type`` and ``_check_options_together``).

        Raises:
            InvalidOptions: naming every unknown option and every bad value.
        """
        return read_options(raw, cls.option_specs, cls.options_type, cls._check_options_together)

    @staticmethod
    def _check_options_together(problems: dict[str, str], values: dict[str, Any]) -> None:
        """May override: the game's checks across options (:data:`OptionsCheck`); none here."""

    @staticmethod
    def parse_deals(raw: Iterable[Any] | None, options: Any) -> list[dict[str, Any]]:
        """Preset deals, given the parsed options → the presets; raises InvalidDeal."""
        raise NotImplementedError

    def __init__(self, options: Any, seed: str, presets: list[dict[str, Any]]) -> None:
        """Must implement: the state before the first deal (:meth:`new` then deals it)."""
        raise NotImplementedError

    @classmethod
    def new(
        cls,
        options: Mapping[str, Any] | None,
        seed: str,
        deals: Iterable[Any] | None = None,
    ) -> Self:
        """A new game, its first deal dealt: preset ``deals`` first, then seeded shuffles.

        Raises:
            InvalidOptions: an unknown option or a bad value.
            InvalidDeal: a preset deal that is not a legal deal of the pack.
        """
        key = _options_key(cls, options)
        parsed = _PARSED_OPTIONS.get(key) if key is not None else None
        if parsed is None:
            parsed = cls.parse_options(options)
            if key is not None:
                _remember(key, parsed)
        state = cls(parsed, seed, cls.parse_deals(deals, parsed))
        state._new_deal()
        return state

    def _new_deal(self) -> list[Event]:
        """Deal the next deal and return its events."""
        raise NotImplementedError

    def opening_events(self) -> list[Event]:
        """The events a new state starts with (the first deal), for the game's feed."""
        raise NotImplementedError

    # -- the turn -----------------------------------------------------------
    def to_move(self) -> list[Seat]:
        """Seats whose action is awaited; empty once the game is over."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        raise NotImplementedError

    def is_over(self) -> bool:
        return self.outcome() is not None

    def legal_moves(self, seat: Seat | None) -> list[Move]:
        """Every legal move of ``seat`` now; empty unless ``seat`` is to move."""
        if seat is None or self.is_over() or seat not in self.to_move():
            return []
        return self._legal_moves(seat)

    def apply(self, seat: Seat | None, move: Any, *, events: bool = True) -> list[Event]:
        """Apply ``move`` for ``seat`` and return the events it caused.

        With ``events=False`` (a simulation that will not read them) the move
        is applied the same way but its events are not built: the list is empty.

        Raises:
            GameOver: the game has ended.
            NotYourTurn: ``seat`` is not to move.
            MalformedMove: ``move`` is not a move of this game.
            IllegalMove: the rules forbid it now (state unchanged).
        """
        if self.is_over():
            raise GameOver()
        if seat is None or seat not in self.to_move():
            raise NotYourTurn(seat)
        move = self.normalize_move(move)
        if not self._is_legal(seat, move):
            raise IllegalMove(self._explain_illegal(seat, move), self._legal_moves(seat))
        if events:
            return self._apply(seat, move)
        self._apply_quietly(seat, move)
        return []

    # -- the compact form, for simulations -------------------------------------
    action_kinds: ClassVar[Mapping[Any, str] | None] = None
    """Each action's kind (the ``type`` of its move), for a policy that draws a kind
    first; None when the kind is in the action itself: a move's ``type``, or the first
    item of a tuple (Seconds, Cowpoke, Pinochle)."""

    actions: ClassVar[tuple[Any, ...]] = ()
    """The game's fixed action space: every action :meth:`legal_actions` can give, once
    each. An action's place here is its id, for good: OpenSpiel's and PettingZoo's action
    ids, which trained policies and the observation tensor depend on."""
    action_ids: ClassVar[Mapping[Any, int]] = {}
    """Each action of :attr:`actions` to its id (built from :attr:`actions`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "actions" in cls.__dict__:
            cls.action_ids = {action: i for i, action in enumerate(cls.actions)}

    def legal_actions(self, seat: Seat | None) -> list[Any]:
        """Every legal action of ``seat`` now, in the game's compact form; empty unless
        ``seat`` is to move. By default the actions are the moves of ``legal_moves``.
        """
        return self.legal_moves(seat)

    def legal_action_ids(self, seat: Seat | None) -> list[int]:
        """The ids (places in :attr:`actions`) of :meth:`legal_actions`, ascending: the
        legal actions as OpenSpiel and PettingZoo number them.

        By default :meth:`legal_actions` looked up and sorted. A game may build the ids
        directly from its state (the simulations' hot path); they must be exactly these.
        """
        ids = list(map(self.action_ids.__getitem__, self.legal_actions(seat)))
        ids.sort()
        return ids

    def legal_actions_by_kind(self, seat: Seat | None) -> list[list[Any]]:
        """:meth:`legal_actions` grouped by kind: one list per kind that is legal, the
        kinds in the order they first appear there, each list's actions in their order.

        For a policy that draws a kind of move first, then a move of that kind (the
        naive simulator's, a searching bot's rollouts): it need not classify every
        action at every step. A game may build the groups directly from its rules;
        they must be exactly this grouping.
        """
        groups: dict[str, list[Any]] = {}
        for action in self.legal_actions(seat):
            groups.setdefault(self.action_kind(action), []).append(action)
        return list(groups.values())

    @classmethod
    def action_kind(cls, action: Any) -> str:
        """The kind (the move's ``type``) of one action of :meth:`legal_actions`."""
        if cls.action_kinds is not None:
            return cls.action_kinds[action]
        return str(action["type"] if isinstance(action, Mapping) else action[0])

    def apply_action(self, seat: Seat | None, action: Any) -> None:
        """Apply one action of :meth:`legal_actions`, building no events.

        By default the same checks as :meth:`apply` (a refused action leaves the
        state unchanged). A game may skip them for speed (Seconds, Cowpoke and
        Pinochle do; Concerto checks): a simulation passes only actions it took
        from :meth:`legal_actions` for the seat to move.
        """
        self.apply(seat, action, events=False)

    # -- hooks for the game ---------------------------------------------------
    def normalize_move(self, move: Any) -> Move:
        """Check the move's shape and return it in canonical form.

        Raises:
            MalformedMove: not a move of this game.
        """
        raise NotImplementedError

    def _legal_moves(self, seat: Seat) -> list[Move]:
        """Every legal move of ``seat``, which is to move in a game not over: the one
        source of truth for legality."""
        raise NotImplementedError

    def _is_legal(self, seat: Seat, move: Move) -> bool:
        """Is the normalized ``move`` in ``_legal_moves(seat)``? A game may answer faster.

        An override must agree with the list exactly: the list stays the one
        source of truth.
        """
        return move in self._legal_moves(seat)

    def _apply(self, seat: Seat, move: Move) -> list[Event]:
        """The rules of a legal, normalized ``move`` of ``seat``: change the state and
        return the events it caused (:meth:`apply` has checked everything)."""
        raise NotImplementedError

    def _apply_quietly(self, seat: Seat, move: Move) -> None:
        """``_apply`` without building events; a game may skip them (by default it does not)."""
        self._apply(seat, move)

    def _explain_illegal(self, seat: Seat, move: Move) -> str:
        """Why ``move`` is refused. Must name nothing ``seat`` cannot see."""
        return "that move is not allowed now"

    # -- information --------------------------------------------------------
    def public_options(self) -> dict[str, Any]:
        """The game's options with every default filled in (they are public)."""
        return options_dict(self.options)

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), the same envelope in every game.

        Whose turn it is, the seat's own legal moves, every seat's score, the
        game's body (:meth:`state_view`, filtered for ``seat``), the result
        once the game is over and, for a seat, its own hand.
        """
        outcome = self.outcome()
        view: dict[str, Any] = {
            "to_move": self.to_move(),
            "legal_moves": self.legal_moves(seat),
            "scores": self.seat_scores(),
            "state": self.state_view(seat),
            "result": None if outcome is None else outcome.to_dict(),
        }
        if seat is not None:
            view["hand"] = list(self.hands[seat])
        return view

    def state_view(self, seat: Seat | None = None) -> dict[str, Any]:
        """The game's state as ``seat`` may see it (``None``: the public part only).

        Fails closed: there is no default, each game says what may be seen.
        """
        raise NotImplementedError

    def seat_scores(self) -> list[int]:
        """Each seat's score (in partnership games, its side's)."""
        raise NotImplementedError

    def reveal(self) -> dict[str, Any]:
        """Everything, for the replay of a finished game (hands, the seed)."""
        raise NotImplementedError

    # -- persistence ----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, secrets included (the store keeps it)."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        """The state :meth:`to_dict` wrote."""
        raise NotImplementedError

    def clone(self) -> BaseState:
        """An independent copy (equal to this state, sharing nothing that changes)."""
        raise NotImplementedError

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """A copy in which what ``seat`` cannot see is drawn anew, consistent with its view.

        For searching bots: each copy is one "world" the seat cannot tell from
        the real one (see :func:`redeal`), in which every move made so far was
        legal; the deals still to come get a new seed. Every game of the registry
        has one (docs/engines.md, "Determinization").
        """
        raise NotImplementedError

    def _hide_the_deals_to_come(self, rng: random.Random, dealt: int) -> None:
        """In a world, the deals still to come are secret too: a seed drawn from ``rng``
        and no preset deals beyond the ``dealt`` ones (for :meth:`determinize`)."""
        self.seed = f"world-{rng.getrandbits(64):016x}"
        self.presets = self.presets[:dealt]

    @classmethod
    def from_view(
        cls, options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat, rng: random.Random
    ) -> Self:
        """A world built from what a bot over HTTP holds: the game's public options and
        ``seat``'s view as JSON (``GET /v1/games/{id}`` gives both).

        The game rebuilds its public state from them, the cards the seat cannot see
        dealt anyhow (:meth:`_public_from_view`); that state must show ``seat`` this
        very view (the fields the API adds around the engine's view aside, and a
        result the engine did not reach: a forfeit); then :meth:`determinize` draws
        what the seat cannot see, as in any world. Every game of the registry has one
        (docs/engines.md, "A world from a view").

        Raises:
            ValueError: the options or the view are not those of a game of this kind.
        """
        what = f"not a view of a {cls.game.capitalize()} game"
        try:
            state = cls._public_from_view(options, view, seat)
            shown = state.view(seat)
            wrong = sorted(
                k for k, v in shown.items() if v != view[k] and (k != "result" or state.is_over())
            )
            if not wrong:
                return state.determinize(seat, rng)
        except (LookupError, TypeError, AttributeError) as e:  # a malformed view
            raise ValueError(f"{what}: {type(e).__name__} {e}") from e
        raise ValueError(f"{what}: its {', '.join(wrong)} disagree with its rules")

    @classmethod
    def _public_from_view(
        cls, options: Mapping[str, Any], view: Mapping[str, Any], seat: Seat
    ) -> Self:
        """:meth:`from_view`'s state before the draw: the public part read from the view
        and the options, the seat's hand, the unseen cards dealt anyhow. May raise
        ValueError, or a lookup or type error on a malformed view."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        """Two states are equal when they would be stored identically."""
        return (
            isinstance(other, BaseState)
            and type(other) is type(self)
            and (self.to_dict() == other.to_dict())
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


S_co = TypeVar("S_co", bound=BaseState, covariant=True)


class NewState(Protocol[S_co]):
    """``new_state(options, seed, deals=None)``: raises InvalidOptions / InvalidDeal."""

    def __call__(
        self, options: Mapping[str, Any] | None, seed: str, deals: Iterable[Any] | None = None
    ) -> S_co: ...


UNBOUNDED_DEALS = 1000
"""The deals a game's :attr:`Game.longest_game` assumes when its options set no limit (a
game played to a target): only OpenSpiel's ``max_game_length`` reads the bound."""

ANY_GAME_BOTS: tuple[str, ...] = ("random",)
"""House bots that play every game (legal moves drawn at random): after each game's own
:attr:`Game.house_bots` wherever a bot is chosen for a game."""


@dataclass(frozen=True)
class Game:
    """A game as the registry lists it: an explicit record, no import side effects.

    Every fact about a game that code outside ``server.games`` needs is here (as
    OpenSpiel's ``GameType``/``GameInfo``), so that the services, the API, the
    processes and the lobby read it from the registry and name no game:

    * ``id``, ``title``, ``options``: what ``GET /v1/rules`` serves (each option
      name maps to its spec: ``default`` and ``choices`` or ``min``/``max``, and a
      ``doc``);
    * ``seats``, ``seat_option``: every table size it is played by (ascending: the
      smallest first, the largest last), and the option that sets the size, if any;
    * ``two_sides``: the sides, through :meth:`side_size`;
    * ``variant_option``: the option that names its edition or variant;
    * ``house_bots``: the bots of the house that play it, best first (the bot pool
      runs them, visitors are seated with the first);
    * ``ladder_options``: the options of its house ladder, where not the defaults;
    * the constructors: ``new_state``, ``from_dict``, ``from_view``, ``opening_events``;
    * its OpenSpiel facts (as ``GameInfo``), which the SDK's adapters (OpenSpiel,
      PettingZoo, the observation tensor) read: ``actions``, the fixed action space (an
      action's place is its id), ``move_of``, each action's move, ``pack``, its cards
      low to high, and ``longest_game``, a bound on a game's moves for given options;
    * ``wire``, the schemas of what it sends and takes (its view, moves and events), which
      the API's spec is built from;
    * ``option_sets``, the options it is judged by (the test suites and the third-party
      ones play each): every edition, variant and table size, each game short.

    :func:`game_record` refuses a game without its OpenSpiel facts or its wire, naming
    what is missing.

    Its rules page is ``docs/rules/<id>.md`` (the docs build lists every game's there).
    """

    id: str
    title: str
    seats: tuple[int, ...]
    options: Mapping[str, Any]
    new_state: NewState[BaseState]
    """``new_state(options, seed, deals=None)``: raises InvalidOptions / InvalidDeal."""
    from_dict: Callable[[Mapping[str, Any]], BaseState]
    from_view: Callable[[Mapping[str, Any], Mapping[str, Any], Seat, random.Random], BaseState]
    """A world from a bot's view (:meth:`BaseState.from_view`), for bots that search."""
    opening_events: Callable[[Any], list[Event]]
    """The events a new state starts with (the first deal), for the game's feed."""
    pack: tuple[Card, ...]
    """Each card of the game once, low to high (the observation tensor's card places)."""
    longest_game: Callable[[Mapping[str, Any]], int]
    """A bound on the moves of a whole game, from its options with every default filled
    in (:meth:`BaseState.public_options`): OpenSpiel's ``max_game_length``, the seed's
    chance nodes aside."""
    move_of: Callable[[Any], Move]
    """The move (the API's form, as ``legal_moves`` lists it) of one action of
    :attr:`actions`: the action ↔ move mapping, the action's id being its place there."""
    wire: Wire
    """What the game sends and takes, as JSON Schema (:class:`~server.games.kit.wire.Wire`):
    its ``state`` view, each of its moves and each event kind's ``data``. The API's spec is
    built from it."""
    seat_option: str | None = None
    """The option that sets the number of players, if the game has one (Cowpoke's
    ``players``). The service fills it in from the seats a creator lists."""
    two_sides: bool = False
    """Whether the seats always form two fixed sides (partnerships), seated alternately
    (seats 0, 2, … against 1, 3, …), as a duplicate match needs: it compares the two
    sides' scores over the same boards. Otherwise every player is a side of one."""
    variant_option: str | None = None
    """The option that names the game's edition or variant, if any (Concerto's ``rules``,
    Pinochle's ``variant``): ``GET /v1/rules`` lists its choices as the game's variants."""
    house_bots: tuple[str, ...] = ()
    """The house bots made for this game, the one that plays it best first: entry-point
    names of the ``parlour.bots`` group (names only: the engines import no bot).
    :data:`ANY_GAME_BOTS` come after them."""
    ladder_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The options of the ladder ``parlour serve`` defines for the game, where not its
    defaults (Concerto's one deal a game, as its house bots' strengths were measured)."""
    option_sets: tuple[Mapping[str, Any], ...] = ({},)
    """Option sets that together play the game in every edition or variant, at every table
    size, and with each option that changes how it is played, each game short (one deal
    where the game has a choice): what the test suites, and the third-party suites
    OpenSpiel's, PettingZoo's and the generated clients', play it with.
    :func:`game_record` makes them when the game names none (:func:`default_option_sets`)."""
    actions: tuple[Any, ...] = ()
    """The game's fixed action space (:attr:`BaseState.actions`): an action's place is
    its id, the same in every state (OpenSpiel's and PettingZoo's action ids)."""

    def __post_init__(self) -> None:
        problems = _fact_problems(self)
        if problems:
            raise ValueError(f"game {self.id!r}: " + "; ".join(problems))

    def side_size(self, seats: int) -> int:
        """Players per side at a table of ``seats``: half the table when the game is played
        by two sides (Pinochle for six: three a side), else one.

        >>> from server.games import REGISTRY
        >>> [REGISTRY["pinochle"].side_size(n) for n in (4, 6, 8)], REGISTRY["cowpoke"].side_size(4)
        ([2, 3, 4], 1)
        """
        return seats // 2 if self.two_sides else 1

    def bots(self) -> tuple[str, ...]:
        """Every house bot that plays the game, the best first: its own, then
        :data:`ANY_GAME_BOTS`."""
        return self.house_bots + tuple(b for b in ANY_GAME_BOTS if b not in self.house_bots)


def game_record(
    state: type[BaseState],
    *,
    title: str,
    seats: tuple[int, ...],
    options: Mapping[str, Any],
    seat_option: str | None = None,
    two_sides: bool = False,
    variant_option: str | None = None,
    house_bots: tuple[str, ...] = (),
    ladder_options: Mapping[str, Any] | None = None,
    pack: Iterable[Card] | None = None,
    longest_game: Callable[[Mapping[str, Any]], int] | None = None,
    move_of: Callable[[Any], Move] | None = None,
    wire: Wire | None = None,
    option_sets: Iterable[Mapping[str, Any]] = (),
) -> Game:
    """The registry's record of the game whose states are ``state``.

    ``pack``, ``longest_game`` and ``move_of`` are the game's OpenSpiel facts
    (:class:`Game`), with the state's ``actions``; ``wire`` is its schemas. Each is
    required. ``option_sets``: the options it is judged by, else
    :func:`default_option_sets`.

    Raises:
        ValueError: a fact is missing or wrong, each named with what it should be.
    """
    given = {"pack": pack, "longest_game": longest_game, "move_of": move_of, "wire": wire}
    missing = [f"no {name} ({_FACTS[name]})" for name, value in given.items() if value is None]
    if missing:
        raise ValueError(f"game {state.game!r}: " + "; ".join(missing))
    assert pack is not None and longest_game is not None and move_of is not None
    assert wire is not None
    return Game(
        id=state.game,
        title=title,
        seats=seats,
        options=options,
        new_state=state.new,
        from_dict=state.from_dict,
        from_view=state.from_view,
        opening_events=state.opening_events,
        seat_option=seat_option,
        two_sides=two_sides,
        variant_option=variant_option,
        house_bots=house_bots,
        ladder_options=dict(ladder_options or {}),
        actions=state.actions,
        pack=tuple(pack),
        longest_game=longest_game,
        move_of=move_of,
        wire=wire,
        option_sets=tuple(map(dict, option_sets))
        or default_option_sets(seats, seat_option, options, variant_option),
    )


def default_option_sets(
    seats: tuple[int, ...],
    seat_option: str | None,
    options: Mapping[str, Any],
    variant_option: str | None,
) -> tuple[dict[str, Any], ...]:
    """The option sets of a game that names none: its defaults, one set per other table
    size and one per other variant (each else the defaults).

    >>> specs = {"v": {"default": "a", "choices": ["a", "b"]}, "n": {"default": 2}}
    >>> default_option_sets((2, 3), "n", specs, "v")
    ({}, {'n': 3}, {'v': 'b'})
    >>> default_option_sets((4,), None, {}, None)
    ({},)
    """
    out: list[dict[str, Any]] = [{}]
    if seat_option is not None:
        default = options[seat_option].get("default")
        out += [{seat_option: n} for n in seats if n != default]
    if variant_option is not None:
        spec = options[variant_option]
        out += [{variant_option: c} for c in spec["choices"] if c != spec.get("default")]
    return tuple(out)


_FACTS = {
    "actions": "the State class's fixed action space, every action legal_actions can give",
    "pack": "pack=: each card of the game once, low to high",
    "longest_game": "longest_game=: a bound on a game's moves, from its options",
    "move_of": "move_of=: the move, as legal_moves lists it, of each action",
    "wire": "wire=: the schemas of its state view, moves and events (kit.wire.Wire)",
}
"""What each of a game's OpenSpiel facts is, for the message that names one missing."""


def _fact_problems(game: Game) -> list[str]:
    """What is wrong with ``game``'s OpenSpiel facts (empty: nothing): present, and each
    action's move a move (a mapping with a ``type``)."""
    problems = []
    if not game.actions:
        problems.append(f"no actions ({_FACTS['actions']})")
    if not game.pack or len(set(game.pack)) != len(game.pack):
        problems.append(f"no pack, or a card twice in it ({_FACTS['pack']})")
    for name in ("longest_game", "move_of"):
        if not callable(getattr(game, name)):
            problems.append(f"no {name} ({_FACTS[name]})")
    if callable(game.move_of):
        for action in game.actions:
            move = game.move_of(action)
            if not isinstance(move, Mapping) or not isinstance(move.get("type"), str):
                problems.append(f"move_of({action!r}) is {move!r}, not a move with a type")
                break
    return problems


def split_leading_kind(actions: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """Tuple actions grouped by kind (their first item), for a game whose every list of
    legal actions is one kind, save perhaps a first action of another (Cowpoke's call
    before pass, Pinochle's pass before the bids): :meth:`BaseState.legal_actions_by_kind`
    without looking at every action.

    >>> split_leading_kind([("pass",), ("bid", 250), ("bid", 260)])
    [[('pass',)], [('bid', 250), ('bid', 260)]]
    """
    if len(actions) > 1 and actions[0][0] != actions[1][0]:
        return [actions[:1], actions[1:]]
    return [actions] if actions else []


def redeal(
    hands: list[list[Card]],
    keep: Iterable[Seat],
    rng: random.Random,
    order: Callable[[list[Card]], list[Card]] = list,
    *,
    known: Sequence[Sequence[Card]] | None = None,
    fits: Callable[[Seat, Card], bool] | None = None,
) -> list[list[Card]]:
    """The hands of the seats not in ``keep`` dealt again from their own cards together.

    Every seat keeps its number of cards, ``keep`` seats keep their cards, and
    the pooled cards of the others are shuffled with ``rng`` and dealt back;
    ``order`` puts each new hand in the order the game holds cards in. This is
    the re-deal of a determinization: the cards a seat cannot see, drawn again.

    ``known[seat]``, if given, are cards everybody has seen that seat hold (shown
    melds): they stay with it. ``fits(seat, card)``, if given, says whether the
    seat may hold the card given what it has shown (a void: it did not follow
    suit), and every new hand fits. Such deals are drawn uniformly by dealing
    again, up to :data:`REDEAL_TRIES` times; then one is built by a matching
    that respects ``fits``, no longer uniform (the real hands fit, so one exists).

    >>> redeal([["AS"], ["KS", "QS"], ["JS"]], [1], random.Random(0))[1]
    ['KS', 'QS']
    >>> void = ["S", "H"]  # seat 0 has shown it holds no spade, seat 1 no heart
    >>> redeal([["AS", "KH"], ["QS", "JH"]], [], random.Random(0), sorted,
    ...        fits=lambda seat, card: card[1] != void[seat])
    [['JH', 'KH'], ['AS', 'QS']]
    """
    kept = set(keep)
    stay = [list(known[s]) if known is not None else [] for s in range(len(hands))]
    pool: list[Card] = []
    need: list[int] = []
    for s, h in enumerate(hands):
        free = list(h)
        for card in stay[s]:
            free.remove(card)
        need.append(0 if s in kept else len(free))
        if s not in kept:
            pool += free
    shuffle(pool, rng)
    dealt = _deal_in_turn(pool, need)
    if fits is not None:
        tries = 1
        while not all(fits(s, c) for s, h in enumerate(dealt) for c in h):
            if tries == REDEAL_TRIES:
                dealt = _matching_deal(pool, need, fits, rng)
                break
            shuffle(pool, rng)
            dealt = _deal_in_turn(pool, need)
            tries += 1
    return [list(h) if s in kept else order(stay[s] + dealt[s]) for s, h in enumerate(hands)]


REDEAL_TRIES = 100
"""Deals :func:`redeal` draws before it builds one that fits by a matching."""


def _deal_in_turn(pool: list[Card], need: list[int]) -> list[list[Card]]:
    """``pool`` cut into hands of ``need[seat]`` cards, in seat order."""
    dealt, start = [], 0
    for n in need:
        dealt.append(pool[start : start + n])
        start += n
    return dealt


def _matching_deal(
    pool: list[Card], need: list[int], fits: Callable[[Seat, Card], bool], rng: random.Random
) -> list[list[Card]]:
    """A deal of ``pool`` in which every card fits its seat: each card takes a free place,
    or one whose card can move to another place that fits (augmenting paths)."""
    places = [s for s, n in enumerate(need) for _ in range(n)]
    shuffle(places, rng)
    holder: list[int | None] = [None] * len(places)  # place -> index of its card in pool

    def place(card: int, tried: set[int]) -> bool:
        for p, seat in enumerate(places):
            if p in tried or not fits(seat, pool[card]):
                continue
            tried.add(p)
            other = holder[p]
            if other is None or place(other, tried):
                holder[p] = card
                return True
        return False

    for card in range(len(pool)):
        if not place(card, set()):
            raise ValueError("no deal of these cards fits what the seats have shown")
    dealt: list[list[Card]] = [[] for _ in need]
    for p, held in enumerate(holder):
        assert held is not None
        dealt[places[p]].append(pool[held])
    return dealt
