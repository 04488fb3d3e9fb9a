"""The coach: the expert's search turned into move analysis, hints, a card-counting
trainer and a post-game summary (docs/coach.md)."""
