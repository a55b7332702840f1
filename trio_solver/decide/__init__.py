"""Decisions: the advisor, the game-level judgement by playouts, and the bots."""
