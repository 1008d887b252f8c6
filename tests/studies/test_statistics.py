"""mm_logic.studies.statistics on known samples: Student's t, the incomplete beta, the sign test, a sample's
summary and the paired test, against published values (each constant says where it comes from)."""

from __future__ import annotations

import math

import pytest

from mm_logic.studies.statistics import (
    format_p,
    incomplete_beta,
    mean_interval,
    paired_test,
    sign_test_p,
    summarize,
    t_cdf,
    t_quantile,
    t_two_sided_p,
)


@pytest.mark.parametrize(("df", "expected"), [
    # Student's t table, 0.975 quantile (two-sided 5%), to the table's 3 decimals.
    (1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262), (10, 2.228), (30, 2.042), (100, 1.984), (1000, 1.962),
])
def test_t_quantile_matches_the_table(df, expected):
    assert round(t_quantile(0.975, df), 3) == expected


def test_t_quantile_more_digits_and_the_normal_limit():
    # t(0.975, 1) = tan(0.475 pi) exactly (Cauchy); t(0.975, 2) = 2 / sqrt(0.95 * 0.05 * 4) - ... closed form:
    # for 2 degrees, t_p = (2p - 1) sqrt(2 / (4p(1 - p))).
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(0.475 * math.pi), rel=1e-12)
    assert t_quantile(0.975, 2) == pytest.approx(0.95 * math.sqrt(2 / (4 * 0.975 * 0.025)), rel=1e-12)
    # A million degrees: the normal's 1.959964 (statistics.NormalDist().inv_cdf(0.975)), to 6 decimals.
    assert t_quantile(0.975, 10**6) == pytest.approx(1.959966, abs=2e-6)
    assert t_quantile(0.025, 10) == -t_quantile(0.975, 10)
    assert t_cdf(t_quantile(0.9, 7), 7) == pytest.approx(0.9, abs=1e-12)


def test_t_two_sided_p():
    assert t_two_sided_p(0.0, 5) == pytest.approx(1.0)
    assert t_two_sided_p(1.0, 1) == pytest.approx(0.5, abs=1e-12)  # Cauchy: P(|T| >= 1) = 1/2
    assert t_two_sided_p(2.228138852, 10) == pytest.approx(0.05, abs=1e-9)
    assert t_two_sided_p(-2.228138852, 10) == t_two_sided_p(2.228138852, 10)


def test_incomplete_beta_against_binomial_tails():
    # I_x(a, b) = P(Binomial(a + b - 1, x) >= a) for whole a, b.
    def binomial_at_least(k, n, p):
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))

    for a, b, x in [(2, 3, 0.4), (1, 1, 0.3), (10, 5, 0.7), (30, 40, 0.45), (7, 1, 0.99)]:
        assert incomplete_beta(a, b, x) == pytest.approx(binomial_at_least(a, a + b - 1, x), rel=1e-12)
    assert incomplete_beta(3, 4, 0) == 0 and incomplete_beta(3, 4, 1) == 1
    with pytest.raises(ValueError):
        incomplete_beta(0, 1, 0.5)


def test_sign_test():
    assert sign_test_p(0, 9) == pytest.approx(2 * 0.5**9)
    assert sign_test_p(2, 8) == pytest.approx(2 * (1 + 10 + 45) / 1024)  # R: binom.test(2, 10): 0.1094
    assert sign_test_p(5, 5) == 1.0 and sign_test_p(0, 0) == 1.0
    assert sign_test_p(3, 7) == sign_test_p(7, 3)


def test_summary_of_a_known_sample():
    # 1..5: mean 3, sample variance 2.5, 95% interval 3 -+ t(0.975, 4) 2.7764451 * sqrt(2.5 / 5) = 3 -+ 1.963243
    s = summarize({1: 1, 2: 1, 3: 1, 4: 1, 5: 1})
    assert (s.n, s.mean, s.min, s.max) == (5, 3.0, 1, 5)
    assert s.stdev == pytest.approx(math.sqrt(2.5), rel=1e-12)
    assert s.ci95 == pytest.approx((3 - 1.963243, 3 + 1.963243), abs=1e-6)
    # Knuth's minimax over the 1296 secrets of 4x6 (keys as bench's JSON writes them)
    knuth = summarize({"1": 1, "2": 6, "3": 62, "4": 533, "5": 694})
    mean = 5801 / 1296
    variance = (sum(n * (k - mean) ** 2 for k, n in {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}.items())) / 1295
    assert (knuth.n, knuth.mean, knuth.min, knuth.max) == (1296, mean, 1, 5)
    # By hand: sum n k^2 = 1 + 24 + 558 + 8528 + 17350 = 26461; (26461 - 5801^2 / 1296) / 1295 = 0.382439.
    assert knuth.stdev == pytest.approx(math.sqrt(variance), rel=1e-12)
    assert knuth.stdev == pytest.approx(math.sqrt(0.382439), abs=1e-6)


def test_summary_below_two_values_has_no_spread():
    one = summarize({4: 1})
    assert (one.n, one.mean, one.min, one.max, one.stdev, one.ci95) == (1, 4.0, 4, 4, None, None)
    none = summarize({})
    assert (none.n, none.mean, none.min, none.max, none.stdev, none.ci95) == (0, None, None, None, None, None)
    assert mean_interval(1, 4.0, 0.0) is None
    # No spread, two values: an interval of width 0.
    assert summarize({3: 2}).ci95 == (3.0, 3.0)


def test_paired_test_on_students_sleep_data():
    # Cushny and Peebles' sleep data (R's `sleep`; Student, 1908): extra hours of sleep of 10 patients under two
    # drugs. R 4.x: t.test(extra ~ group, data = sleep, paired = TRUE) gives t = -4.0621, df = 9,
    # p-value = 0.002833, 95 percent confidence interval -2.4598858 -0.7001142, mean difference -1.58;
    # binom.test(0, 9) (one tie dropped) gives p-value = 0.003906.
    one = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    two = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    test = paired_test([a - b for a, b in zip(one, two)])
    assert test.n == 10 and test.mean_difference == pytest.approx(-1.58, abs=1e-12)
    assert test.t == pytest.approx(-4.0621, abs=5e-5)
    assert test.p_value == pytest.approx(0.002833, abs=5e-7)
    assert test.ci95 == pytest.approx((-2.4598858, -0.7001142), abs=5e-8)
    assert (test.fewer, test.more) == (9, 0)
    assert test.sign_p_value == pytest.approx(0.003906, abs=5e-7)


def test_paired_test_edge_cases():
    same = paired_test([0, 0, 0])
    assert (same.mean_difference, same.stdev, same.ci95, same.t, same.p_value, same.sign_p_value) == (
        0.0, 0.0, (0.0, 0.0), None, 1.0, 1.0)
    shifted = paired_test([1, 1, 1, 1])  # every secret one guess more: no chance at all
    assert (shifted.t, shifted.p_value, shifted.ci95) == (None, 0.0, (1.0, 1.0))
    assert shifted.sign_p_value == pytest.approx(2 / 16)
    single = paired_test([2])
    assert (single.n, single.mean_difference, single.ci95, single.p_value) == (1, 2.0, None, None)
    empty = paired_test([])
    assert (empty.n, empty.p_value, empty.sign_p_value) == (0, None, 1.0)


def test_format_p():
    assert [format_p(p) for p in (0.5, 0.002833, 1.63e-278, 0.0, None)] == ["0.5", "0.00283", "1.63e-278",
                                                                          "< 1e-300", "-"]
