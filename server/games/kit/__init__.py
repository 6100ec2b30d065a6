"""What every game shares: the engine contract, packs of cards, preset deals, Poker, the wire."""
