"""The terminal: the game in both roles (:mod:`.play`) and what a long command shows
while it works, the spinner and the progress bar (``progress``)."""
