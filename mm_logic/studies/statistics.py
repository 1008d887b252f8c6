"""The numbers beside a bench's mean: spread, a 95% interval, and whether two strategies differ.

``bench`` and ``compare`` report, over the games won, the least and the sample standard
deviation (n - 1) of the guesses, and the 95% confidence interval of the mean from
Student's t with n - 1 degrees of freedom (:func:`summarize`). ``compare`` tests each pair
of strategies that played the same secrets on the same engine with a paired t-test on the
per-secret differences, beside an exact sign test (:func:`paired_test`).

Why both tests: the paired t-test is about the quantity the tables print, the mean, and
gives the interval of the mean difference; the guesses are small integers, not normal,
but the t-test's level holds for such bounded differences from a few tens of secrets on.
The sign test assumes nothing about their distribution (it counts the secrets where
each strategy needed fewer guesses, ties dropped), so where the two p-values disagree
on a small sample, the sign test is the one to trust. Wilcoxon's signed-rank test was
left out: with differences of a few integers most ranks tie, and it would need the
normal approximation with tie corrections that the sign test does not.

No scipy (not a dependency): Student's distribution and the binomial tail come from the
regularized incomplete beta function (:func:`incomplete_beta`), as in Numerical
Recipes (6.4), and the t quantile by bisection of the distribution function.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

#: Steps of the continued fraction before :func:`incomplete_beta` gives up: it needs about
#: sqrt(a) of them, a = n/2 for Student's t with n degrees of freedom (n up to a few million here).
MAX_STEPS = 100_000
#: Relative accuracy of the continued fraction and of the quantile's bisection.
EPSILON = 1e-15


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    >>> round(incomplete_beta(2, 3, 0.4), 10)  # 1 - P(Binomial(4, 0.4) <= 1) = 0.5248
    0.5248
    """
    if not (a > 0 and b > 0 and 0 <= x <= 1):
        raise ValueError(f"incomplete_beta({a}, {b}, {x}): needs a, b > 0 and 0 <= x <= 1")
    if x in (0, 1):
        return float(x)
    # The continued fraction converges fast below the mean of Beta(a, b) (roughly); above it, the symmetry
    # I_x(a, b) = 1 - I_(1-x)(b, a) keeps it there.
    if x > (a + 1) / (a + b + 2):
        return 1.0 - incomplete_beta(b, a, 1.0 - x)
    log_front = a * math.log(x) + b * math.log1p(-x) - math.log(a) - _log_beta(a, b)
    return math.exp(log_front) * _beta_fraction(a, b, x)


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), evaluated by the modified Lentz method."""
    tiny = 1e-300  # stands for a zero denominator, which Lentz's method steps over
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, MAX_STEPS + 1):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            step = c * d
            value *= step
        if abs(step - 1.0) < EPSILON:
            return value
    raise ArithmeticError(f"the incomplete beta's fraction did not converge (a={a}, b={b}, x={x})")


def t_two_sided_p(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's T with ``df`` degrees of freedom.

    >>> round(t_two_sided_p(2.228138852, 10), 6)
    0.05
    """
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's T with ``df`` degrees of freedom."""
    tail = t_two_sided_p(t, df) / 2
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = ``p`` for Student's T with ``df`` degrees of freedom.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)
    """
    if not 0 < p < 1:
        raise ValueError(f"t_quantile({p}): needs 0 < p < 1")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:  # the upper tail is as heavy as 1/t (one degree), so doubling finds it
        low, high = high, 2 * high
    while high - low > EPSILON * high:
        middle = (low + high) / 2
        if middle in (low, high):
            break
        low, high = (middle, high) if t_cdf(middle, df) < p else (low, middle)
    return (low + high) / 2


def sign_test_p(fewer: int, more: int) -> float:
    """Exact two-sided sign test: the chance of a split at least as uneven as ``fewer`` against ``more``
    when either side is as likely (Binomial(n, 1/2), n = fewer + more); 1 when n is 0.

    >>> round(sign_test_p(0, 9), 12)  # 2 * 0.5**9
    0.00390625
    """
    n = fewer + more
    if n == 0:
        return 1.0
    k = min(fewer, more)
    # P(X <= k) for X ~ Binomial(n, 1/2) is I_(1/2)(n - k, k + 1).
    return min(1.0, 2 * incomplete_beta(n - k, k + 1, 0.5))


# -- a sample of guesses -----------------------------------------------------------------
@dataclass(frozen=True)
class Summary:
    """A sample's size, mean, least and greatest value, sample standard deviation (n - 1) and the
    95% confidence interval of its mean (Student's t, n - 1 degrees of freedom)."""

    n: int
    #: None without a value (n = 0), as ``min`` and ``max``.
    mean: float | None
    min: int | None
    max: int | None
    #: None below two values.
    stdev: float | None
    #: ``(low, high)``; None below two values.
    ci95: tuple[float, float] | None


def mean_interval(n: int, mean: float, stdev: float, level: float = 0.95) -> tuple[float, float] | None:
    """The ``level`` confidence interval of the mean of ``n`` values with this mean and sample standard
    deviation (Student's t, n - 1 degrees of freedom); None when n < 2.

    >>> [round(x, 4) for x in mean_interval(5, 3.0, math.sqrt(2.5))]  # 3 -+ 2.776445 * 1.581139 / sqrt(5)
    [1.0368, 4.9632]
    """
    if n < 2:
        return None
    half = t_quantile(1 - (1 - level) / 2, n - 1) * stdev / math.sqrt(n)
    return mean - half, mean + half


def summarize(histogram: Mapping[int, int]) -> Summary:
    """The :class:`Summary` of a histogram (value -> how many times), e.g. guesses -> games.

    Computed from the counts: a bench over every secret of a large space holds a million
    games in a few bins. An empty histogram has n = 0 and no mean, min or max (None, as in
    ``mm_logic.histogram.HistogramFigures.histogram_figures``).

    >>> summary = summarize({1: 1, 2: 1, 3: 1, 4: 1, 5: 1})
    >>> summary.mean, summary.min, summary.max, round(summary.stdev, 6)
    (3.0, 1, 5, 1.581139)
    """
    counts = {int(k): v for k, v in histogram.items() if v}
    n = sum(counts.values())
    if n == 0:
        return Summary(0, None, None, None, None, None)
    mean = math.fsum(k * v for k, v in counts.items()) / n
    stdev = math.sqrt(math.fsum(v * (k - mean) ** 2 for k, v in counts.items()) / (n - 1)) if n > 1 else None
    return Summary(n, mean, min(counts), max(counts), stdev, None if stdev is None else mean_interval(n, mean, stdev))


# -- two strategies on the same secrets ------------------------------------------------------
@dataclass(frozen=True)
class PairedTest:
    """Two samples paired (a's and b's guesses on the same secrets): the differences a - b."""

    n: int
    mean_difference: float
    #: Sample standard deviation of the differences; None below two pairs.
    stdev: float | None
    #: 95% interval of the mean difference; None below two pairs.
    ci95: tuple[float, float] | None
    #: Student's t of the mean difference (n - 1 degrees of freedom); None below two pairs, or where
    #: every difference is the same (no spread: t is infinite, or 0/0 when they are all 0).
    t: float | None
    #: Two-sided p-value of the paired t-test; None below two pairs.
    p_value: float | None
    #: Secrets where a needed fewer guesses than b, and more (ties are not counted).
    fewer: int
    more: int
    #: Two-sided p-value of the exact sign test on ``fewer`` against ``more``.
    sign_p_value: float


def paired_test(differences: Sequence[float]) -> PairedTest:
    """The paired t-test and the sign test of ``differences`` (a - b, one per secret).

    >>> test = paired_test([1, 1, 0, 2, 1])
    >>> test.mean_difference, round(test.t, 4), round(test.p_value, 4), round(test.sign_p_value, 12)
    (1.0, 3.1623, 0.0341, 0.125)
    """
    n = len(differences)
    fewer = sum(1 for d in differences if d < 0)
    more = sum(1 for d in differences if d > 0)
    sign = sign_test_p(fewer, more)
    if n == 0:
        return PairedTest(0, 0.0, None, None, None, None, fewer, more, sign)
    mean = math.fsum(differences) / n
    if n < 2:
        return PairedTest(n, mean, None, None, None, None, fewer, more, sign)
    stdev = math.sqrt(math.fsum((d - mean) ** 2 for d in differences) / (n - 1))
    if stdev == 0:
        # Every secret gave the same difference: none (p = 1) or the same on all (p = 0: no chance at all).
        return PairedTest(n, mean, 0.0, (mean, mean), None, 1.0 if mean == 0 else 0.0, fewer, more, sign)
    t = mean / (stdev / math.sqrt(n))
    return PairedTest(n, mean, stdev, mean_interval(n, mean, stdev), t, t_two_sided_p(t, n - 1), fewer, more, sign)


def format_p(p: float | None) -> str:
    """A p-value in text: 3 significant digits, ``< 1e-300`` below floating point's reach, ``-`` for none.

    >>> format_p(0.002833), format_p(0.0), format_p(None)
    ('0.00283', '< 1e-300', '-')
    """
    if p is None:
        return "-"
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"
