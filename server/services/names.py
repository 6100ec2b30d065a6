"""Display names: one validator for every name that enters the server, and house bots' names.

A name is shown to other people (seats, entries, leaderboards, invitations,
the web pages) and read by bots. :func:`clean_name` is the one check every entry
point uses (player registration, visitors, apps and their guests, tournaments,
ladders). It stores the NFC form, stripped of surrounding whitespace, and
refuses, naming the class in the error:

* ``control`` characters (Unicode Cc: NUL, ESC, U+0085...) and the line and
  paragraph separators U+2028/U+2029 (Zl, Zp);
* ``bidi`` embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069)
  and the marks U+200E, U+200F, U+061C: they reorder what follows them;
* other invisible ``format`` characters (Cf: zero-width space, soft hyphen,
  word joiner, BOM, tags...), which hide text. The zero-width (non-)joiners
  U+200C/U+200D are kept between two visible characters, where Persian,
  Indic scripts and emoji sequences need them;
* surrogates, and names ``empty`` (or only whitespace) after stripping;
* names ``too_long``: more code points than the field's documented maximum.

**House bots** (the bot pool's players, ids starting ``bot``) are named
``<bot> #<n>``. :func:`impersonates` tells whether a name would pass for one
once folded (NFKC, case-folded, joiners and whitespace runs dropped or
collapsed) and reduced to its :func:`skeleton` (Unicode TS 39 confusables for
the Latin letters and digits, :mod:`server.services.confusables`: Cyrillic
``\u0430`` reads as ``a``, small capital ``\u0280`` as ``r``): such names are
refused to everyone else.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from server.services.confusables import latin
from server.services.errors import InvalidRequest

MAX_LENGTH = 64
"""The longest player, guest or app name, in code points (after NFC)."""
MAX_TITLE_LENGTH = 100
"""The longest tournament or ladder name."""
MAX_VISITOR_LENGTH = 40
"""The longest visitor name."""

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_JOINERS = frozenset("\u200c\u200d")


def problem(name: str, max_length: int = MAX_LENGTH) -> str | None:
    """What is wrong with an (already NFC, stripped) name, or None.

    >>> problem("Ada"), problem("a\\u202eb"), problem("a\\x00b")
    (None, 'bidi: U+202E reorders text', 'control: U+0000')
    """
    if not name:
        return "empty: a name needs a visible character"
    if len(name) > max_length:
        return f"too_long: at most {max_length} characters"
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if ch in _BIDI:
            return f"bidi: U+{ord(ch):04X} reorders text"
        if cat in ("Cc", "Zl", "Zp"):
            return f"control: U+{ord(ch):04X}"
        if cat == "Cs":
            return f"control: a lone surrogate U+{ord(ch):04X}"
        if cat == "Cf":
            inside = 0 < i < len(name) - 1
            if ch in _JOINERS and inside and _visible(name[i - 1]) and _visible(name[i + 1]):
                continue
            return f"format: U+{ord(ch):04X} is invisible"
    if not any(_visible(ch) for ch in name):
        return "empty: a name needs a visible character"
    return None


def _visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] not in ("C", "Z")


def clean_name(value: str, field: str = "name", max_length: int = MAX_LENGTH) -> str:
    """The name to store: NFC, stripped; or InvalidRequest naming ``field`` and the class.

    >>> clean_name("  Cafe\\u0301 ")
    'Café'

    Raises:
        InvalidRequest: ``details[field]`` is ``["<class>: <why>"]``.
    """
    name = unicodedata.normalize("NFC", value).strip()
    why = problem(name, max_length)
    if why is not None:
        raise InvalidRequest("this name cannot be used", {field: [why]})
    return name


def fold(name: str) -> str:
    """A name as compared for look-alikes: NFKC, case-folded, no format characters,
    runs of whitespace, ``_`` and ``-`` as one space.

    >>> fold("  RANDOM\\u200d  ＃1 ")
    'random #1'
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    folded = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return re.sub(r"[\s_-]+", " ", folded).strip()


def skeleton(name: str) -> str:
    """A name as it is drawn: :func:`fold`, then each code point as the ASCII letters
    or digits it is confusable with (TS 39), folded again until nothing changes.

    >>> skeleton("r\u0430nd\u043em #1") == skeleton("\u0280ANDOM #1") == skeleton("random #l")
    True
    """
    shown = fold(name)
    while True:
        drawn = fold("".join(latin(ch) for ch in shown))
        if drawn == shown:
            return drawn
        shown = drawn


def impersonates(name: str, house: Iterable[str]) -> bool:
    """Whether ``name`` would pass for a house bot named ``<bot> #<n>`` (any ``n``), or
    for the bot itself, given the pool's bot names ``house``: their skeletons compared.

    >>> impersonates("Random #1", ["random"]), impersonates("random#7", ["random"])
    (True, True)
    >>> impersonates("Randall", ["random"]), impersonates("random fan", ["random"])
    (False, False)
    """
    folded = skeleton(name)
    for bot in house:
        stem = skeleton(bot)
        if folded == stem or re.fullmatch(re.escape(stem) + r" ?#.*", folded):
            return True
    return False


def clean_player_name(
    value: str, house: Iterable[str], field: str = "name", max_length: int = MAX_LENGTH
) -> str:
    """:func:`clean_name`, and refused as ``reserved`` if it would pass for a house bot.

    Raises:
        InvalidRequest: ``details[field]`` names the class (``reserved`` for a look-alike).
    """
    name = clean_name(value, field, max_length)
    if impersonates(name, house):
        raise InvalidRequest(
            "this name is reserved for the server's house bots",
            {field: ["reserved: it reads as a house bot's name"]},
        )
    return name
