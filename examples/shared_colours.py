"""The codemaker tells only how many colours the guess and the secret share: black + white as one number.

A feedback rule of your own, stated three times as the built-in rules are: here in Python (the
reference the python engine filters with and every engine's answers are checked with), in
shared_colours.lp for clingo and in shared_colours.pl for SWI-Prolog. Play it with

    mmlogic solve --feedback examples/shared_colours.py --backend python --secret 0123
    mmlogic solve --feedback examples/shared_colours.py --backend clingo --encoding examples/shared_colours.lp
    mmlogic solve --feedback examples/shared_colours.py --backend swipl --encoding examples/shared_colours.pl

The codemaker also says when a guess is the code (written ``won``): 0123 and 1230 both share 4
colours with the secret 0123, and only one of them is it.
"""

from collections import Counter

NAME = "shared colours"


def score(guess, secret):
    """The numbers told of ``guess`` (a tuple of colours) when the code is ``secret``: one here."""
    return (sum((Counter(guess) & Counter(secret)).values()),)
