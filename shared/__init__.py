"""Hartenjagen game core: cards, rules, the game as a fold of events, per-seat views."""
