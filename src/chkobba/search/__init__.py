"""Search over hidden cards: sampling deals consistent with an observation
(:mod:`~chkobba.search.determinize`), a fast playout policy
(:mod:`~chkobba.search.policy`) and an exact solver for the last deal
(:mod:`~chkobba.search.endgame`)."""
