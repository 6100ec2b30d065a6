"""Ladders: their definition, joining and leaving, entries' status and health, the
leaderboard (docs/ladder.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from server.services.names import MAX_TITLE_LENGTH

from .callbacks import CallbackHealth
from .fields import Boolean, Name, Number, _Query, house
from .ratings import ORDINAL, SURE
from .tournaments import Clock, TimeoutPolicy

_SIDES = ("solo", "fixed")
ENTRY_STATUSES = (
    "available",
    "playing",
    "away",
    "paused",
    "left",
    "held",
    "validating",
    "failed_validation",
)
PLAYER_ID = validate.Length(min=1, max=64)


class LadderCreate(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    options = fields.Dict(keys=fields.String(), load_default=None)
    table_size = fields.Integer(strict=True, validate=validate.Range(min=2, max=8))
    side_size = fields.Integer(strict=True, validate=validate.Range(min=1, max=4))
    duplicate = Boolean()
    name = Name(max_length=MAX_TITLE_LENGTH)
    clock = fields.Nested(Clock)
    timeout_policy = fields.Nested(TimeoutPolicy)
    max_games = fields.Integer(strict=True, validate=validate.Range(min=1, max=64))
    provisional_games = fields.Integer(strict=True, validate=validate.Range(min=0, max=1000))
    pause_after = fields.Integer(strict=True, validate=validate.Range(min=1, max=100))
    pause_seconds = fields.Float(validate=validate.Range(min=0, max=86400 * 7))
    seen_seconds = fields.Float(validate=validate.Range(min=0.1, max=3600))
    rematch_seconds = fields.Float(
        validate=validate.Range(min=0, max=3600),
        metadata={
            "description": "a match that would replay an entry's last match whole (nobody "
            "else free) waits until that entry has been idle this long (default 3), so that "
            "entries finishing soon after mix in"
        },
    )
    sides = fields.String(
        validate=validate.OneOf(_SIDES),
        metadata={
            "description": "`solo` (default): every entry is one player, paired into "
            "partnerships board by board; `fixed` (two players a side only): every entry is "
            "a pair entered together (`partner` in the join body), always one side"
        },
    )
    validation = Boolean(
        metadata={
            "description": "(default true) a new entry (joining again after leaving is one), "
            "or one whose callback changed, first plays an unrated validation game against "
            "the ladder's house bots and is matched only once that game ends with no timeout "
            "and no illegal move of its own (a ladder without house bots enough to fill a "
            "table with it validates nobody)"
        }
    )


class LadderEntryQuery(_Query):
    """The player to take out: the caller itself when left out (the admin names one)."""

    player_id = fields.String(
        validate=PLAYER_ID,
        metadata={
            "description": "the player to take out (admin only; players leave for themselves)"
        },
    )


class LadderEntryBody(Schema):
    """The player to enter (as :class:`LadderEntryQuery`) and, on a ladder of fixed pairs,
    its partner (the pair plays once the partner joins naming it back)."""

    player_id = fields.String(validate=PLAYER_ID, load_default=None)
    max_games = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=64),
        load_default=None,
        allow_none=True,
        metadata={
            "description": "the entry's own cap on games at once, below the ladder's "
            "`max_games` (`parlour-bot run --games N` joins with 1, so it never holds two). "
            "Kept from the first join: joining again while entered leaves it as it was."
        },
    )
    partner = fields.String(
        validate=PLAYER_ID,
        load_default=None,
        metadata={
            "description": "ladders of fixed pairs only: the partner's player id (required "
            "there, unless the player is entered already: the call then only confirms it). "
            "The entry is `held` until the partner joins naming this player back (the same "
            "call); then the pair plays as one side. Refused (400) when either is already "
            "entered with someone else (leave first)."
        },
    )


# -- answers --------------------------------------------------------------------------------
class LadderSummary(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(keys=fields.String(), required=True)
    table_size = fields.Integer(required=True)
    side_size = fields.Integer(required=True)
    sides = fields.String(required=True, validate=validate.OneOf(_SIDES))
    duplicate = fields.Boolean(required=True)
    clock = fields.Nested(Clock, required=True)
    timeout_policy = fields.Nested(TimeoutPolicy, required=True)
    max_games = fields.Integer(
        required=True,
        metadata={"description": "concurrent games per entry (house bots have no cap)"},
    )
    provisional_games = fields.Integer(required=True)
    pause_after = fields.Integer(required=True)
    pause_seconds = Number(required=True)
    seen_seconds = Number(required=True)
    rematch_seconds = Number()
    validation = fields.Boolean(
        metadata={"description": "whether new entries play a validation game first"}
    )
    created = fields.String(required=True)
    entries_count = fields.Integer(required=True)
    matches = fields.Integer(required=True, metadata={"description": "matches made so far"})


class LadderList(Schema):
    ladders = fields.List(fields.Nested(LadderSummary), required=True)


class LadderResults(Schema):
    won = fields.Integer(required=True)
    drawn = fields.Integer(required=True)
    lost = fields.Integer(required=True)


class LadderValidation(Schema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["pending", "playing", "passed", "failed"]),
        metadata={
            "description": "`pending`: its validation game starts when it is seen waiting; "
            "`playing`: the game is on (`game_id`); `passed`: it may be matched; `failed`: "
            "see `reason`"
        },
    )
    attempt = fields.Integer(required=True, validate=validate.Range(min=1))
    game_id = fields.String(required=True, allow_none=True)
    reason = fields.String(required=True, allow_none=True)


class LadderHealth(Schema):
    games = fields.Integer(
        required=True, metadata={"description": "finished games (tables) played"}
    )
    games_with_timeouts = fields.Integer(required=True)
    timeouts = fields.Integer(
        required=True, metadata={"description": "moves the clock made for it"}
    )
    timeout_streak = fields.Integer(required=True)
    response_p50 = Number(allow_none=True, metadata={"description": "ms from turn to move"})
    response_p99 = Number(allow_none=True, metadata={"description": "ms, latest 500 moves"})
    response_samples = fields.Integer()
    refused_moves = fields.Integer(metadata={"description": "moves the rules refused"})
    callback = fields.Nested(
        CallbackHealth,
        allow_none=True,
        metadata={
            "description": "for an entry that plays through a callback (`PUT "
            "/v1/me/callback`): how it answers its calls, in all its games; null for any other"
        },
    )


class LadderRating(Schema):
    mu = Number()
    sigma = Number()
    ordinal = Number()
    low = Number(metadata={"description": "mu - 1.96 sigma (95% interval)"})
    high = Number(metadata={"description": "mu + 1.96 sigma (95% interval)"})
    games = fields.Integer()
    provisional = fields.Boolean(
        metadata={"description": "as on the leaderboard: sigma or contests not enough yet"}
    )


class LadderMatchRating(Schema):
    mu = Number(required=True)
    sigma = Number(required=True)
    ordinal = Number(required=True, metadata={"description": "mu - 3 sigma"})
    low = Number(required=True, metadata={"description": "mu - 1.96 sigma (95% interval)"})
    high = Number(required=True, metadata={"description": "mu + 1.96 sigma (95% interval)"})


class LadderMatchGame(Schema):
    game_id = fields.String(required=True, allow_none=True)
    replay = fields.String(required=True, allow_none=True)
    over = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={"description": "null while the board's other table is not over (sealed)"},
    )


class LadderMatch(Schema):
    match = fields.Integer(required=True)
    created = fields.String(required=True)
    partners = fields.List(
        fields.String(), required=True, metadata={"description": "partners at the entry's table"}
    )
    teammates = fields.List(
        fields.String(),
        metadata={
            "description": "a duplicate board's other side of the entry's team (at the other table)"
        },
    )
    opponents = fields.List(fields.String(), required=True)
    outcome = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(["won", "drawn", "lost"])
    )
    rating = fields.Nested(
        LadderMatchRating,
        required=True,
        allow_none=True,
        metadata={
            "description": "the entry's rating right after this contest was rated (null until "
            "then): plotted over the history, the entry's rating over time"
        },
    )
    games = fields.List(fields.Nested(LadderMatchGame), required=True)


class LadderEntry(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    house = house()
    partner = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the partner named on a ladder of fixed pairs (else null)"},
    )
    status = fields.String(
        required=True,
        validate=validate.OneOf(ENTRY_STATUSES),
        metadata={
            "description": "`available`: seen waiting lately, may be matched; `playing`: at "
            "a game of the ladder now; `away`: not seen waiting within `seen_seconds`; "
            "`paused`: timed out in its last `pause_after` games (see `paused_reason`); "
            "`left`: no longer entered; `held`: a fixed pair whose partner has not joined "
            "naming it back; `validating`: to play, or playing, its validation game (see "
            "`validation`); `failed_validation`: it timed out or moved illegally there "
            "(`validation.reason`): joining again tries again."
        },
    )
    validation = fields.Nested(
        LadderValidation,
        allow_none=True,
        metadata={
            "description": "the entry's validation game (null: it needs none: a house bot, a "
            "ladder that does not validate, or one without house bots enough)"
        },
    )
    paused_reason = fields.String(required=True, allow_none=True)
    paused_until = Number(required=True, allow_none=True, metadata={"description": "epoch seconds"})
    joined = fields.String(required=True, allow_none=True)
    last_seen_waiting = fields.String(required=True, allow_none=True)
    last_played = fields.String(required=True, allow_none=True)
    results = fields.Nested(LadderResults, required=True)
    health = fields.Nested(LadderHealth, required=True)
    rating = fields.Nested(LadderRating, allow_none=True)
    history = fields.List(fields.Nested(LadderMatch))


class Ladder(LadderSummary):
    entries = fields.List(fields.Nested(LadderEntry), required=True)


class LadderLeft(Schema):
    ladder_id = fields.String(required=True)
    player_id = fields.String(required=True)
    left = fields.Boolean(required=True)
    partner_left = fields.String(
        metadata={"description": "on a ladder of fixed pairs, the partner that left too"}
    )


class LadderRank(Schema):
    rank = fields.Integer(required=True, validate=validate.Range(min=1))
    player_id = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    label = fields.String(
        required=True,
        metadata={
            "description": "the name to show; where two rows share a name, each is followed "
            "by its player id's last four characters (`mybot #b2c4`)"
        },
    )
    house = house()
    ordinal = Number(required=True, metadata={"description": ORDINAL})
    mu = Number(required=True)
    sigma = Number(required=True)
    low = Number(required=True, metadata={"description": "mu - 1.96 sigma (95% interval)"})
    high = Number(required=True, metadata={"description": "mu + 1.96 sigma (95% interval)"})
    games = fields.Integer(
        required=True, metadata={"description": "rated contests (a duplicate board is one)"}
    )
    provisional = fields.Boolean(
        required=True,
        metadata={
            "description": f"true while sigma is not yet {SURE}, or the entry has fewer "
            "than the ladder's `provisional_games` rated contests"
        },
    )
    results = fields.Nested(LadderResults, required=True)
    last_played = fields.String(required=True, allow_none=True)
    on_ladder = fields.Boolean(required=True)


class LadderLeaderboard(Schema):
    ladder_id = fields.String(required=True)
    leaderboard = fields.List(fields.Nested(LadderRank), required=True)
