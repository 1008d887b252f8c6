"""The terminal: the game in both roles (:mod:`.play`), the two in turn with a score (:mod:`.duel`),
and what a long command shows while it works, the spinner and the progress bar (``progress``)."""
