"""PNG charts of a comparison, like the seeds' figures (matplotlib)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ..support.errors import BackendUnavailable, install_hint
from ..support.files import check_output
from .compare import Comparison

#: Most series a chart names in its legend.
MAX_LEGEND = 16


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise BackendUnavailable(f"--plot needs matplotlib: {install_hint('plot')}") from None
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def _grouped_bars(plt, comparison: Comparison, value, ylabel: str, title: str, path: Path,
                  by_backend: bool, log: bool = False) -> None:
    rule_sets = list(dict.fromkeys(r.rules.describe() for r in comparison.rows))
    series = list(dict.fromkeys((r.backend, r.strategy) if by_backend else r.strategy for r in comparison.rows))
    values = {}
    for r in comparison.rows:
        key = (r.backend, r.strategy) if by_backend else r.strategy
        values.setdefault((key, r.rules.describe()), value(r))
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(rule_sets) + 2), 4.2))
    width = 0.8 / max(len(series), 1)
    for i, key in enumerate(series):
        xs = [j + i * width for j in range(len(rule_sets))]
        ys = [values.get((key, label), 0) for label in rule_sets]
        ax.bar(xs, ys, width, label=" / ".join(key) if by_backend else key)
    ax.set_xticks([j + width * (len(series) - 1) / 2 for j in range(len(rule_sets))], rule_sets)
    _finish(plt, fig, ax, ylabel, title, path, log)


def _series(plt, comparison: Comparison, value, ylabel: str, title: str, path: Path, log: bool) -> None:
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    keys = list(dict.fromkeys((r.backend, r.strategy) for r in comparison.rows))
    for key in keys:
        rows = sorted((r for r in comparison.rows if (r.backend, r.strategy) == key), key=lambda r: r.rules.pegs)
        ax.plot([r.rules.pegs for r in rows], [value(r) for r in rows], marker="o", label=" / ".join(key))
    ax.set_xlabel("pegs")
    _finish(plt, fig, ax, ylabel, title, path, log)


def _finish(plt, fig, ax, ylabel: str, title: str, path: Path, log: bool) -> None:
    """Labels, legend, and the PNG file, alike for every chart."""
    ax.set_ylabel(ylabel)
    # Study titles are long: wrapped, so no chart cuts its own title.
    ax.set_title(textwrap.fill(title, 60), fontsize="medium")
    if log:
        ax.set_yscale("log")
    # A sweep's 60 strategies would make a legend taller than the chart (its table names them).
    if len(ax.get_legend_handles_labels()[0]) <= MAX_LEGEND:
        ax.legend(fontsize="small")
    fig.tight_layout()
    check_output(path)  # a FIFO put there during the games would be waited on for ever
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _varying(rows) -> str | None:
    """``pegs`` or ``colors`` when the rows' rule sets differ in that alone, else None."""
    rules = {r.rules for r in rows}
    for axis, other in (("pegs", "colors"), ("colors", "pegs")):
        if (len({getattr(r, axis) for r in rules}) > 2 and len({r.max_repeat for r in rules}) == 1
                and (axis == "pegs" or len({getattr(r, other) for r in rules}) == 1)):
            return axis
    return None


def _against(plt, rows, axis: str, value, ylabel: str, title: str, path: Path, log: bool) -> None:
    """One line per (backend, strategy) against pegs or colours (the seeds' figures 2-3, 8-9, 12-15)."""
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for key in dict.fromkeys((r.backend, r.strategy) for r in rows):
        mine = sorted((r for r in rows if (r.backend, r.strategy) == key), key=lambda r: getattr(r.rules, axis))
        ax.plot([getattr(r.rules, axis) for r in mine], [value(r) for r in mine], marker="o",
                label=" / ".join(key))
    ax.set_xticks(sorted({getattr(r.rules, axis) for r in rows}))
    ax.set_xlabel("pegs (n)" if axis == "pegs" else "colours (p)")
    _finish(plt, fig, ax, ylabel, title, path, log)


def _distribution(plt, rows, title: str, path: Path) -> None:
    """Share of games per number of attempts, one line per (backend, strategy) (seed 004's figure)."""
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for r in rows:
        histogram = r.histogram
        xs = sorted(histogram)
        ax.plot(xs, [histogram[x] / r.games for x in xs], marker="o", label=f"{r.backend} / {r.strategy}")
    ax.set_xlabel("attempts")
    _finish(plt, fig, ax, "share of games", title, path, False)


def _parameters(rows) -> dict[str, dict[str, list]]:
    """The ``--ga`` keys whose values differ between the rows' strategies (``ga004:population=50:...``):
    key -> value -> the rows that have it, for a sweep's charts; {} when fewer than two keys vary."""
    by_key: dict[str, dict[str, list]] = {}
    for r in rows:
        for item in r.strategy.split(":")[1:]:
            key, _, value = item.partition("=")
            by_key.setdefault(key, {}).setdefault(value, []).append(r)
    varying = {k: v for k, v in by_key.items() if len(v) > 1 and sum(map(len, v.values())) == len(rows)}
    return varying if len(varying) > 1 else {}


def _parameter_charts(plt, rows, title: str, slug: str, out) -> None:
    """Mean attempts against each parameter of a sweep, over the others (seed 004's plots of its sweep)."""
    for key, values in _parameters(rows).items():
        fig, ax = plt.subplots(figsize=(6.5, 4.2))
        xs = sorted(values, key=float)
        means = [sum(r.total_guesses for r in values[x]) / max(sum(r.won for r in values[x]), 1) for x in xs]
        ax.plot(xs, means, marker="o", label=f"mean over the other parameters ({len(values[xs[0]])} cells each)")
        ax.set_xlabel(key)
        _finish(plt, fig, ax, "mean attempts", f"{title}: by {key}", out(f"{slug}-by-{key}.png"), False)


def _study_charts(plt, study, rows, out) -> None:
    """The charts of one study: against the varying size, or bars per rule set; effort when counted."""
    part = Comparison(rows=rows)
    title, slug = study.title, study.slug
    effort = [r for r in rows if r.search and r.search["nodes"]]
    axis = _varying(rows)
    if axis:
        _against(plt, rows, axis, lambda r: r.mean, "mean attempts", f"{title}: attempts",
                 out(f"{slug}-attempts.png"), log=False)
        _against(plt, rows, axis, lambda r: r.ms_per_game, "ms per game (log)", f"{title}: time",
                 out(f"{slug}-time.png"), log=True)
        if effort:
            _against(plt, effort, axis, lambda r: r.search["nodes"] / r.games, "nodes per game (log)",
                     f"{title}: search effort", out(f"{slug}-nodes.png"), log=True)
        return
    _grouped_bars(plt, part, lambda r: r.mean, "mean attempts", f"{title}: mean attempts",
                  out(f"{slug}-mean.png"), by_backend=True)
    _grouped_bars(plt, part, lambda r: r.max, "max attempts", f"{title}: worst case",
                  out(f"{slug}-max.png"), by_backend=True)
    _grouped_bars(plt, part, lambda r: r.ms_per_game, "ms per game (log)", f"{title}: time",
                  out(f"{slug}-time.png"), by_backend=True, log=True)
    if effort:
        _grouped_bars(plt, Comparison(rows=effort), lambda r: r.search["nodes"] / r.games,
                      "nodes per game (log)", f"{title}: search effort", out(f"{slug}-nodes.png"),
                      by_backend=True, log=True)
    if _parameters(rows):
        _parameter_charts(plt, rows, title, slug, out)
    elif len({r.rules for r in rows}) == 1:
        _distribution(plt, rows, f"{title}: attempts", out(f"{slug}-distribution.png"))


def plot_comparison(comparison: Comparison, folder: Path) -> list[Path]:
    """Write the charts into ``folder``; returns their paths.

    Across all rows: mean and maximum attempts and time per game, per rule
    set (the seed-000 figures 4-6), and against pegs when the rule sets
    differ in pegs alone; then, for a preset or engines that count their
    search, each study's own charts, named after it.
    """
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    paths = []

    def out(name: str) -> Path:
        paths.append(folder / name)
        return paths[-1]

    _grouped_bars(plt, comparison, lambda r: r.mean, "mean attempts", "Mean attempts",
                  out("mean_attempts.png"), by_backend=False)
    _grouped_bars(plt, comparison, lambda r: r.max, "max attempts", "Maximum attempts",
                  out("max_attempts.png"), by_backend=False)
    _grouped_bars(plt, comparison, lambda r: r.ms_per_game,
                  "ms per game (log)", "Time per game", out("time_per_game.png"), by_backend=True, log=True)
    pegs = [r.rules.pegs for r in comparison.rows]
    if len(set(pegs)) > 2 and len({r.rules.describe() for r in comparison.rows}) == len(set(pegs)):
        _series(plt, comparison, lambda r: r.mean, "mean attempts", "Attempts against pegs",
                out("attempts_by_pegs.png"), log=False)
        _series(plt, comparison, lambda r: r.ms_per_game,
                "ms per game (log)", "Time per game against pegs", out("time_by_pegs.png"), log=True)
    studies = [(study, rows) for study, rows in comparison.studies if rows]
    if comparison.preset is not None or any(r.search is not None for r in comparison.rows):
        for study, rows in studies:
            _study_charts(plt, study, rows, out)
    return paths
