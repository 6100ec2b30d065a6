"""Pinochle — the partnership family: Partnership, Firehouse, Check and double-deck.

The rules are ``docs/rules/pinochle.md``. A tag such as P6 cites the resolved
point ``docs/rules/pinochle.md#p6`` (P2…P21); the package is split by concern:

* :mod:`.melds` — the melds and the class rule (P3, P4, P20);
* :mod:`.rules` — the rule hooks: head rules (P6), counters, check tables
  (P11, P13, P14), auctions (P9, P15, P16), variants and settling a deal
  (P8, P17, P18);
* :mod:`.options` — options and preset deals;
* :mod:`.state` — the game itself, :class:`~.state.State`: the moves, views,
  persistence and worlds for bots, over one class per section of the rulebook,
  each on :mod:`.core` (the fields of a game, the phases and move kinds):
  :mod:`.deal` (P2), :mod:`.auction` (P8, P9, P15, P16), :mod:`.melding` (the
  dix exchange, P5; showing the melds), :mod:`.tricks` (P6) and :mod:`.scoring`
  (P11, P13, P14, P17, P18).

The course of a deal, in rulebook order:

* **Seats.** Sides sit alternately: seats 0, 2, … against 1, 3, … (with four
  players N–S against E–W). Partners' melds and tricks are added together.
* **Deal.** From the dealer's left, in threes (fours with the 96-card pack);
  12 cards each, 16 with six players, 12 with eight (P2). The deal passes to
  the left.
* **Trumps.** ``partnership`` and ``double-deck`` (P21): the dealer's last card
  is turned up; from the dealer's left every other seat is asked in turn to
  ``exchange_dix`` or ``keep``; the first holder of a dix who wants the turned
  card takes it and the dealer takes the dix (P5). ``firehouse`` and ``check``:
  an auction (P9; P15, P16), then the bidder names trumps (P8).
* **Melds** are found and shown by the server as soon as trumps are fixed
  (after the exchange), scored class by class (P20), and are public from then
  on; the cards they prove stay listed under ``exposed`` until played.
* **Tricks.** Eldest leads (the bidder in the auction variants, P8); the
  obligations follow ``head_rule`` (P6); the highest trump wins, else the
  highest card of the led suit, the first of two identical cards.
* **Scoring.** Counters plus melds, the melds only for a side that won a trick
  (P17); partnership: both sides score, game to ``target`` with both over →
  higher, equal → another deal (P18); auction variants: the bidding side is
  counted first and makes its bid or loses it; reaching the target ends the
  game. Check keeps a ledger of checks (P11, P13, P14).

Moves: ``{"type": "bid", "amount": 250}``, ``{"type": "pass"}``,
``{"type": "trump", "suit": "H"}``, ``{"type": "exchange_dix"}``,
``{"type": "keep"}``, ``{"type": "play", "card": "AS"}`` (plays one of your
AS; ``legal_moves`` lists each distinct card once).

Choices where the rules are silent (there is no P1, P7, P10, P12, P19 or
P22; these are this engine's answers):

* **The dix exchange asks every seat but the dealer**, in turn from the
  dealer's left, holder or not (a non-holder's only move is ``keep``): asking
  only holders would tell the table who holds a dix. The dealer is not asked
  (the turned card is already in the dealer's hand). A turned dix leaves
  nothing to exchange: melds are shown at once. Melds are shown after the
  exchange, so the exchanger melds with the turned card; dixes score for their
  original holders (the exchanged dix for its first holder, not the dealer).
* **The dix is a meld** for P17: it counts only for a side that wins a trick.
* **Double-deck last trick** is worth 20 (10 per pack), so the counters total
  250 per pack per deal, 500 with the double pack (the figure the rules give for the variant).
* **Multiple marriages (P4) apply to trumps too**: two K-Q of trumps are a
  double marriage (300), and the best split may prefer it to flush + royal
  marriage (P20's "best set of disjoint melds").
* **Meld-value options apply in every variant** where the meld can occur
  (double flush, double pinochle and the eights also in single-deck games).
  Multiple marriages, triple/quadruple pinochles, twelves, sixteens and the
  triple flush exist only with the double pack.
* **Pinochle is always Q♠ J♦**, whatever the trumps.
* **The dealer must bid when everyone else passed**: "held to 200" (Firehouse,
  P9) and "must bid 200" (Check, P16) both mean the dealer has no pass then.
  Bids are multiples of 10 from 200 up to 1500.
* **Check's meld checks are paid when shown** (P11), whatever the tricks; a
  double not in the table earns twice its single's checks; the Bicycle round
  house (80 kings and 60 queens in one hand) earns 5 instead of their 1 + 1.
  "Game … + 4 (Bicycle + 5) if the losers are below zero".
* **Options.** ``variant`` null means double-deck for 6 or 8 players, else
  partnership (so the service's ``players`` from the seat list suffices);
  ``players`` null means 4 (6 for double-deck); ``count`` null means simple
  for Check, traditional otherwise; ``first_dealer`` null draws the first
  dealer from the seed. A non-default ``check_table`` outside Check, or a
  player count the variant is not played by, is refused.
* **Presets** are ``{"dealer"?, "hands", "turn_up"?}``; the turned card
  defaults to the last card listed for the dealer.
* **Who is known to hold what** is public under ``exposed``: the turned card
  (the dealer's), then the melds (the most of each card one class uses), the
  exchange (the taker holds the turned card; the dealer the received dix
  besides its own), less each card played since.
* **A safety valve, ``max_deals``** (null by default: play to the target):
  random or reckless bidders can drive both sides down forever, so an arena
  may cap a game's deals; at the cap the higher score wins, equal is a draw.
* **The game ends only between deals**; scores are per side, each seat showing
  its side's; the checks are a side ledger beside the score (net, zero-sum),
  they do not decide the winner.

>>> s = new_state({"variant": "firehouse", "first_dealer": 0}, seed="doc")
>>> s.to_move(), s.phase, [len(h) for h in s.hands]
([1], 'auction', [12, 12, 12, 12])
>>> s.legal_moves(1)[:2]
[{'type': 'pass'}, {'type': 'bid', 'amount': 200}]
"""

from .melds import Meld, MeldTable, find_melds, has_marriage
from .options import OPTIONS, PinochleOptions, parse_deals, parse_options
from .rules import HEAD_RULES, VARIANTS, trick_winner
from .state import GAME, State, new_state

__all__ = [
    "GAME", "HEAD_RULES", "OPTIONS", "VARIANTS", "Meld", "MeldTable", "PinochleOptions", "State",
    "find_melds", "has_marriage", "new_state", "parse_deals", "parse_options", "trick_winner",
]  # fmt: skip
