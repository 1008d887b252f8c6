"""Studies of the liar's game (:mod:`mm_logic.lies`: answers that may be wrong, at most K lies).

* :mod:`.every_lie`: every way the codemaker may lie (``bench --lies K --liar every``): a strategy's worst case;
* :mod:`.optimal`: the least worst case against every liar (``optimal --lies K --objective worst-case``), small
  games only;
* :mod:`.within`: a strategy that finds every secret within D guesses against every liar, searched and checked
  (its kernels: :mod:`mm_logic.kernels.lies_within`).

Nothing is imported here: a command imports the module it runs.
"""
