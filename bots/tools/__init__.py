"""Tools that play bots against each other locally: the arena and the par arena."""
