"""PNG charts of a comparison, like the seeds' figures (matplotlib)."""

from __future__ import annotations

from pathlib import Path

from .compare import Comparison
from .errors import BackendUnavailable


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise BackendUnavailable("--plot needs matplotlib: pip install 'mmlogic[plot]'") from None
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def _grouped_bars(plt, comparison: Comparison, value, ylabel: str, title: str, path: Path,
                  by_backend: bool, log: bool = False) -> None:
    rule_labels = list(dict.fromkeys(r.rules.describe() for r in comparison.rows))
    series = list(dict.fromkeys((r.backend, r.strategy) if by_backend else r.strategy for r in comparison.rows))
    values = {}
    for r in comparison.rows:
        key = (r.backend, r.strategy) if by_backend else r.strategy
        values.setdefault((key, r.rules.describe()), value(r))
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(rule_labels) + 2), 4.2))
    width = 0.8 / max(len(series), 1)
    for i, key in enumerate(series):
        xs = [j + i * width for j in range(len(rule_labels))]
        ys = [values.get((key, label), 0) for label in rule_labels]
        ax.bar(xs, ys, width, label=" / ".join(key) if by_backend else key)
    ax.set_xticks([j + width * (len(series) - 1) / 2 for j in range(len(rule_labels))], rule_labels)
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
    ax.set_title(title)
    if log:
        ax.set_yscale("log")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_comparison(comparison: Comparison, folder: Path) -> list[Path]:
    """Write the charts into ``folder``; returns their paths."""
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
    return paths
