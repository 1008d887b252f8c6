"""The seeds' genetic algorithms, as strategies.

**Seed 001** (Chekirou, part 2), ``ga001-random``, ``ga001-similar``,
``ga001-dissimilar``, ``ga001-reduction``: every turn, a random population
evolves to fill a set E of codes consistent with the history. Fitness is a
penalty, one point per unit by which a code misses an entry's black or white
count (and per colour over the repetition limit); selection is by
tournaments of 10, each winner mutated symbol by symbol with probability
0.25. The search stops when E holds ``maxsize`` codes (10, as in the
report's question 2.2) or after ``maxgen`` = 100 generations with E not
empty; with E still empty it goes on until the time limit (the report's
5 minutes; ``--time-limit``), then fails. Population: 10, 10, 10, 20, 50
for 4..8 pegs (the report's table; 10 below 4 pegs, 50 above 8). The guess
is picked from E by one of the report's four rules: most similar to the
rest of E, least similar (similarity: colours in common, black + white),
largest estimated reduction (smallest expected number of codes of E left),
or at random.

**Seed 004** (Falcand and Bellanger), ``ga004``: one population of 200 lives
through the game, and each turn plays the fittest code not yet played. A turn
evolves at most 10 generations and stops once that code is consistent: the
report's loop plays when its test "Solution trouvée ?" succeeds and states no
cap; the 10 is ours (with one generation a turn, 4x8 games took 13.2
guesses instead of 7.1; see docs/results/seed001.md). Fitness is Σ |3p + m − (3P + M)| over the history
(ratio 3); selection keeps the best and draws half the rest by a roulette
biased towards low fitness; children come from the report's three
crossovers (cut after all pegs but one, after half, after one); each code
mutates with probability 5% (one peg to another colour). Its guesses need
not be consistent: it plays what the population found best so far. Feedback
is the game's rule, for the secret's answers and the fitness alike: the
report's ``compare`` pairs each peg with the first match it meets and can miss
a black (1134 against 2115 gives it 0,2; the rule gives 1,1).

Their parameters are ``--ga KEY=VALUE,...`` (:data:`GA_KEYS`; docs/cli.md, "Genetic algorithms'
parameters"), the values above their defaults; a strategy played with some carries them in its name
(``ga004:population=50``), which a bench's workers read back.

Both are functions of (``--seed``, history): every random draw comes from a
generator seeded by the seed and the history, so ``--seed`` gives the same
game and a bench over every secret is one tree. A code that breaks the
repetition rule is repaired (its extra pegs recoloured), as seed 004 asks
("make sure the candidates built are valid").
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np

from ..feedback import black_common, colour_counts, feedback
from ..notation import Code, Entry, quoted
from ..randomness import history_rng, random_code
from ..rules import Rules  # noqa: F401 (doctests)
from ..support.errors import BadInput, StrategyGaveUp
from .base import SeededStrategy

#: Seed 001's population per number of pegs (its table of best parameters).
GA001_POPULATION = {4: 10, 5: 10, 6: 10, 7: 20, 8: 50}
#: Seconds the seed 001 search may go on with E empty when no --time-limit is given (the report's 5 minutes).
GA001_TIMEOUT = 300.0


def black_white(guess: Code, codes: np.ndarray, colors: int) -> tuple[np.ndarray, np.ndarray]:
    """Black and white pegs of ``guess`` against every row of ``codes`` (vectorised)."""
    black, common = black_common(guess, codes, colour_counts(codes, colors))
    return black, common - black


def penalties(codes: np.ndarray, history: list[Entry], rules, ratio: int = 1) -> np.ndarray:
    """Seed 001's fitness of each row of ``codes``: how far from consistent (0: consistent).

    One point per unit an entry's white count is missed (``ratio`` per unit of its black count: 1 in
    the report), and per peg over the repetition limit.

    >>> penalties(np.array([[0, 1], [1, 1]]), [((0, 0), (1, 0))], Rules(2, 2)).tolist()
    [0, 1]
    """
    counts = colour_counts(codes, rules.colors).astype(np.int64)
    total = np.maximum(counts - rules.repeat_limit, 0).sum(axis=1)
    for guess, (black, white) in history:
        b, w = black_white(guess, codes, rules.colors)
        total += ratio * np.abs(b - black) + np.abs(w - white)
    return total


def repaired(code: list[int], colors: int, limit: int, rng: np.random.Generator) -> Code:
    """``code`` with pegs over the repetition limit recoloured at random among allowed colours."""
    counts = Counter(code)
    for i, c in enumerate(code):
        if counts[c] > limit:
            allowed = [x for x in range(colors) if counts[x] < limit]
            counts[c] -= 1
            code[i] = int(allowed[int(rng.integers(len(allowed)))])
            counts[code[i]] += 1
    return tuple(code)


#: The genetic strategies' names (``--ga`` sets their parameters).
GENETIC_NAMES = ("ga001-random", "ga001-similar", "ga001-dissimilar", "ga001-reduction", "ga004")
#: ``--ga`` keys, in the order a parameterised name lists them, each with its meaning for ``--help``.
GA_KEYS = {
    "population": "codes in the population, 2..100000 (ga001-*: 10, 10, 10, 20, 50 for 4..8 pegs; ga004: 200)",
    "mutation": "mutation rate, a probability (0.05 or 5%) or 1/n, one over the pegs (ga001-*: 0.25 a peg; "
                "ga004: 5% a code)",
    "mutate": "mutation type, each-peg or one-peg (ga001-*: each-peg; ga004: one-peg)",
    "ratio": "fitness weight of a black peg against a white one, 1..100 (ga001-*: 1; ga004: 3)",
    "selection": "tournament or roulette (ga001-*: tournament; ga004: roulette)",
    "tournament": "codes in a tournament, 2..1000 (10)",
    "eset": "size of the set E of consistent codes, 1..10000 (ga001-* only: 10)",
    "generations": "generations a turn at most, 1..100000 (ga001-*: 100; ga004: 10)",
}
_CHOICES = {"mutate": ("each-peg", "one-peg"), "selection": ("tournament", "roulette")}
_RANGES = {"population": (2, 100_000), "ratio": (1, 100), "tournament": (2, 1000), "eset": (1, 10_000),
           "generations": (1, 100_000)}


def _value(key: str, text: str, strategy: str) -> str:
    """``text`` of ``key`` checked and written in one way (the name's spelling), or :class:`BadInput` naming the
    strategy's parameter (``ga004 population=1``: typed in ``--ga`` or in the name, or a request's ``strategy``)."""
    if key not in GA_KEYS:
        raise BadInput(f"{strategy}: unknown parameter {quoted(key)}; choose from {', '.join(GA_KEYS)}")
    if key == "eset" and strategy == "ga004":
        raise BadInput("ga004 keeps no set E: eset is a parameter of seed 001's ga001-* strategies")
    if key in _CHOICES:
        if text not in _CHOICES[key]:
            raise BadInput(f"{strategy} {key}={text}: choose from {', '.join(_CHOICES[key])}")
        return text
    if key == "mutation":
        if text == "1/n":
            return text
        try:
            if not text.isascii() or "_" in text:
                # float() reads other scripts' digits ('٥' as 5) and Python's grouping (0.0_5): numbers are written
                # with 0-9
                raise ValueError
            rate = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            rate = -1.0
        if not 0 <= rate <= 1:
            raise BadInput(f"{strategy} mutation={text}: a probability from 0 to 1 (0.05 or 5%), or 1/n")
        return f"{rate:g}"
    low, high = _RANGES[key]
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise BadInput(f"{strategy} {key}={text}: a whole number from {low} to {high}")
    return str(int(text))


def ga_parameters(text: str, strategy: str) -> dict[str, str]:
    """The parameters of ``KEY=VALUE`` items (``,`` or ``:`` between them) for the genetic ``strategy``,
    each checked (:class:`BadInput`, one line), by key in :data:`GA_KEYS`'s order.

    >>> ga_parameters("mutation=15%,population=50", "ga004")
    {'population': '50', 'mutation': '0.15'}
    """
    given: dict[str, str] = {}
    for item in text.replace(":", ",").split(","):
        key, equals, value = item.strip().partition("=")
        if not equals or not value.strip():
            raise BadInput(f"{strategy}: {quoted(item.strip())} is not KEY=VALUE (keys: {', '.join(GA_KEYS)})")
        given[key.strip()] = _value(key.strip(), value.strip(), strategy)
    return {key: given[key] for key in GA_KEYS if key in given}


def ga_name(strategy: str, parameters: dict[str, str]) -> str:
    """The name of ``strategy`` played with ``parameters``: ``ga004:population=50:mutation=0.15``
    (what ``compare`` and ``bench`` print, and a ``--strategy`` reads back).

    >>> ga_name("ga004", {"population": "50"})
    'ga004:population=50'
    """
    return ":".join([strategy, *(f"{k}={v}" for k, v in parameters.items())])


class Genetic(SeededStrategy):
    """A genetic strategy with its ``--ga`` parameters (``params``; the reports' values where not given)."""

    feedback_rules = ("standard",)
    deterministic = True
    #: Defaults of the keys this strategy reads (subclasses).
    mutate = "each-peg"
    selection = "tournament"
    tournament = 10
    ratio = 1

    def __init__(self, rules, seed=None, params: dict[str, str] | None = None, **options):
        super().__init__(rules, seed, **options)
        self.params = dict(params or {})
        if self.params:
            # The name carries the parameters: a bench's worker rebuilds the same strategy from it.
            self.name = ga_name(type(self).name, self.params)
            for key in ("mutate", "selection"):
                if key in self.params:
                    setattr(self, key, self.params[key])
            for key in ("ratio", "tournament"):
                if key in self.params:
                    setattr(self, key, int(self.params[key]))
            if "mutation" in self.params:
                text = self.params["mutation"]
                self.mutation = 1 / rules.pegs if text == "1/n" else float(text)

    def select(self, fitness: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
        """Indices of ``count`` parents drawn from codes of ``fitness`` (lower is fitter) by the selection."""
        size = len(fitness)
        if self.selection == "tournament":
            # Tournaments (drawn with replacement), the best of each (lowest index on ties) a parent.
            picks = np.sort(rng.integers(size, size=(count, min(self.tournament, size))), axis=1)
            return picks[np.arange(count), np.argmin(fitness[picks], axis=1)]
        # Seed 004's roulette: weight max - fitness (every code alike when they are all equal).
        weights = fitness.max() - fitness.astype(float)
        return rng.choice(size, size=count, p=weights / weights.sum() if weights.sum() > 0 else None)

    def mutated(self, codes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """``codes`` (changed in place) mutated: each peg, with the rate's probability, to a random colour
        (``each-peg``, seed 001's); or each code, with that probability, one peg to another colour (``one-peg``,
        seed 004's)."""
        colors = self.rules.colors
        if self.mutate == "each-peg":
            mutate = rng.random(codes.shape) < self.mutation
            codes[mutate] = rng.integers(colors, size=int(mutate.sum()))
            return codes
        mutants = np.flatnonzero(rng.random(len(codes)) < self.mutation)
        if colors > 1 and mutants.size:
            where = rng.integers(codes.shape[1], size=mutants.size)
            shift = 1 + rng.integers(colors - 1, size=mutants.size)
            codes[mutants, where] = (codes[mutants, where] + shift) % colors
        return codes


class Ga001(Genetic):
    """Seed 001's genetic algorithm; subclasses pick the guess from E.

    Its ``--ga`` defaults are the report's (part 2, question 2.1: tournaments of 10, each peg mutated
    with probability 0.25, the population of its table; question 2.2: E of 10 codes, 100 generations).
    """

    mutation = 0.25

    def __init__(self, rules, seed=None, params=None, **options):
        super().__init__(rules, seed, params, **options)
        self.maxsize = int(self.params.get("eset", 10))
        self.maxgen = int(self.params.get("generations", 100))

    @property
    def population(self) -> int:
        if "population" in self.params:
            return int(self.params["population"])
        pegs = self.rules.pegs
        return GA001_POPULATION.get(pegs, 10 if pegs < 4 else 50)

    def consistent_set(self, session, rng: np.random.Generator) -> list[Code] | None:
        """E: consistent codes not yet played, found by evolution (see the module).

        None when E is still empty after ``maxgen`` generations because no code is
        consistent (asked of the engine then, rather than searching until the time limit).
        """
        history = session.history
        rules, limit = self.rules, self.rules.repeat_limit
        played = {guess for guess, _ in history}
        found: list[Code] = []
        population = np.array([random_code(rules, rng) for _ in range(self.population)])
        budget = GA001_TIMEOUT if self.time_limit is None else self.time_limit
        deadline = time.monotonic() + budget
        generation = 0
        while True:
            fitness = penalties(population, history, rules, self.ratio)
            for i in np.flatnonzero(fitness == 0).tolist():
                code = tuple(int(c) for c in population[i])
                if code not in played and code not in found:
                    found.append(code)
            generation += 1
            if len(found) >= self.maxsize or (found and generation >= self.maxgen):
                return found
            if generation == self.maxgen and session.any() is None:
                return None
            if time.monotonic() > deadline:
                if found:
                    return found
                raise StrategyGaveUp(f"{self.name} found no consistent code in {generation} generations "
                                    f"within the time limit of {budget:g} s ({rules.describe()}); "
                                    f"{rules.naming.more_time()}")
            # As many parents as codes (tournaments of 10 in the report), every peg of every one
            # mutated with probability 0.25 (the report's).
            children = self.mutated(population[self.select(fitness, len(population), rng)], rng)
            if rules.restricted:
                children = np.array([repaired(row, rules.colors, limit, rng) for row in children.tolist()])
            population = children

    def pick(self, found: list[Code], rng: np.random.Generator) -> Code:
        """The code of E with the lowest :meth:`cost` (the first on ties)."""
        costs = self.cost(found)
        return found[costs.index(min(costs))]

    def cost(self, found: list[Code]) -> list[int]:
        raise NotImplementedError

    def choose(self, session) -> Code | None:
        rng = history_rng(self.seed, session.history)
        found = self.consistent_set(session, rng)
        return None if found is None else self.pick(found, rng)


def _similarity(found: list[Code]) -> list[int]:
    """For each code of E, the colours it has in common with the others (black + white summed)."""
    return [sum(sum(feedback(a, b)) for j, b in enumerate(found) if j != i) for i, a in enumerate(found)]


class Ga001Random(Ga001):
    name = "ga001-random"
    summary = "seed 001's genetic algorithm, a random code of E (--seed); opens at random"

    def pick(self, found, rng):
        return found[int(rng.integers(len(found)))]


class Ga001Similar(Ga001):
    name = "ga001-similar"
    summary = "seed 001's genetic algorithm, the code of E most similar to the others"

    def cost(self, found):
        return [-s for s in _similarity(found)]


class Ga001Dissimilar(Ga001):
    name = "ga001-dissimilar"
    summary = "seed 001's genetic algorithm, the code of E least similar to the others"

    def cost(self, found):
        return _similarity(found)


class Ga001Reduction(Ga001):
    name = "ga001-reduction"
    summary = "seed 001's genetic algorithm, the code of E leaving the fewest of E expected"

    def cost(self, found):
        # Σ over E of the size of its part (E's codes as equally likely secrets).
        return [sum(n * n for n in Counter(feedback(guess, secret) for secret in found).values())
                for guess in found]


class Ga004(Genetic):
    """Seed 004's genetic algorithm (see the module): one population through the game.

    Its ``--ga`` defaults are the report's choice after its sweep ("ratio = 3, pop = 200, taux = 5"),
    its roulette and its one-peg mutation (step 2, questions 1-2); 10 generations a turn are ours.
    """

    name = "ga004"
    summary = "seed 004's genetic algorithm: population 200 evolved each turn, fittest code played"
    mutate = "one-peg"
    selection = "roulette"
    ratio = 3
    mutation = 0.05

    def __init__(self, rules, seed=None, params=None, **options):
        super().__init__(rules, seed, params, **options)
        self.size = int(self.params.get("population", 200))
        #: Generations per turn at most; a turn ends early once the fittest code not yet
        #: played is consistent ("solution found" in the report's loop).
        self.generations = int(self.params.get("generations", 10))
        # The population of the game in progress: a game costs one turn's generations per turn.
        self._live: tuple[list[Entry], np.ndarray] | None = None
        #: When the guess being chosen must be ready by (``time_limit``; None: no limit).
        self._deadline: float | None = None

    def fitness(self, codes: np.ndarray, history: list[Entry]) -> np.ndarray:
        """Σ |3p + m − (3P + M)| over the history for each row of ``codes`` (seed 004's ``eval``, summed)."""
        total = np.zeros(len(codes), dtype=np.int64)
        for guess, (black, white) in history:
            b, w = black_white(guess, codes, self.rules.colors)
            total += np.abs(self.ratio * b + w - (self.ratio * black + white))
        return total

    def _generation(self, population: np.ndarray, fitness: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Selection (best + biased roulette over half the rest), crossover, mutation."""
        rules, pegs = self.rules, self.rules.pegs
        order = np.argsort(fitness, kind="stable")
        ranked = population[order]
        rest = fitness[order][1:]
        keep = self.select(rest, len(rest) // 2, rng) + 1
        parents = np.concatenate([ranked[:1], ranked[keep]])
        # The three crossovers: cut after all pegs but one, after half, after one.
        cuts = np.array(sorted({max(1, pegs - 1), max(1, pegs // 2), 1}))
        missing = self.size - len(parents)
        pairs = rng.integers(len(parents), size=(missing, 2))
        cut = cuts[rng.integers(len(cuts), size=missing)]
        before = np.arange(pegs)[None, :] < cut[:, None]
        children = np.where(before, parents[pairs[:, 0]], parents[pairs[:, 1]])
        population = np.concatenate([parents, children])
        # Mutation: a code, with probability 5%, gets one peg of another colour.
        population = self.mutated(population, rng)
        if rules.restricted:
            population = np.array([repaired(row, rules.colors, rules.repeat_limit, rng)
                                   for row in population.tolist()])
        return population

    def _turn(self, population: np.ndarray, history: list[Entry]) -> np.ndarray:
        """The generations of one turn, after the last entry of ``history``."""
        played = np.array([guess for guess, _ in history])
        fitness = self.fitness(population, history)
        for generation in range(self.generations):
            if self._deadline is not None and time.monotonic() > self._deadline:
                # Only large --ga values get here (a turn of the defaults takes milliseconds): a server's
                # --time-limit bounds a request's guess as it bounds seed 001's search.
                naming = self.rules.naming
                fewer = (f"{naming.more_time()} or lower --ga population or generations" if naming.prefix == "--"
                         else f"{naming.more_time()}: ask for a smaller population or fewer generations")
                raise StrategyGaveUp(f"{self.name} did not evolve its generations within the time limit of "
                                     f"{self.time_limit:g} s ({self.rules.describe()}); {fewer}")
            rng = history_rng(self.seed, [*history, generation])
            population = self._generation(population, fitness, rng)
            # Scored once: for the test below and as the next generation's selection.
            fitness = self.fitness(population, history)
            fresh = ~(population[:, None, :] == played[None, :, :]).all(axis=2).any(axis=1)
            if fresh.any() and fitness[fresh].min() == 0:
                break
        return population

    def _population(self, history: list[Entry]) -> np.ndarray:
        if history and self._live is not None and history[:-1] == self._live[0]:
            population = self._turn(self._live[1], history)
        else:
            rng = history_rng(self.seed, [])
            population = np.array([random_code(self.rules, rng) for _ in range(self.size)])
            for turn in range(1, len(history) + 1):
                population = self._turn(population, history[:turn])
        self._live = (list(history), population)
        return population

    def choose(self, session) -> Code | None:
        history = session.history
        played = {guess for guess, _ in history}
        self._deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        population = self._population(history)
        order = np.argsort(self.fitness(population, history), kind="stable")
        for i in order.tolist():
            code = tuple(int(c) for c in population[i])
            if code not in played:
                return code
        # Everything the population holds was played: a fresh code keeps the game going.
        rng = history_rng(self.seed, history)
        while True:
            code = random_code(self.rules, rng)
            if code not in played:
                return code
