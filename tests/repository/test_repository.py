"""The repository keeps its promises: CI runs the README's test command, encodings ship."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile

from conftest import ROOT


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_gives_two_setup_commands_and_ci_runs_the_test_one():
    install, tests = readme_commands()[:2]
    assert "pip install ." in install and "mmlogic solve" in install
    assert "install-swipl.sh" in tests and "install-browser.sh" in tests and "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line for line in ci if line and not line.startswith(("#", "set ", "cd "))]
    assert commands == [tests]


def test_readme_set_up_names_every_extra_and_how_to_add_it():
    # Right after the README's install, `mmlogic serve` failed for want of an extra it did not name.
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    set_up = (ROOT / "README.md").read_text().split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert sorted(re.findall(r"^- `(\w+)`:", set_up, re.MULTILINE)) == sorted(extras) == [
        "dask", "docs", "gym", "plot", "serve", "swipl", "test"]
    assert ".venv/bin/pip install '.[NAME]'" in set_up and "pip install 'mmlogic[NAME]'" in set_up


def test_every_dependency_is_in_the_install_page_with_its_bound():
    # docs/install.md says why each package is there: a dependency added or re-pinned in
    # pyproject.toml without its row there would go unexplained.
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    page = (ROOT / "docs" / "install.md").read_text().split("## Dependencies", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith("| package")]
    named = {name.strip().split("[")[0] for row in rows for name in row.split("|")[1].split(",")}
    wanted = {re.split(r"[<>=\[]", spec, maxsplit=1)[0] for spec in project["dependencies"]}
    wanted |= {re.split(r"[<>=\[]", spec, maxsplit=1)[0] for specs in project["optional-dependencies"].values()
               for spec in specs}
    assert wanted - {"pytest", "hypothesis", "ruff", "pexpect", "selenium", "httpx2", "hatchling"} <= named
    bounds = {spec.split("[")[0].split(">")[0].split("<")[0]: spec for spec in project["dependencies"]}
    assert bounds["clingo"] == "clingo>=5.7,<6" and "`>=5.7,<6`" in page
    assert "starlette>=1.0" in project["optional-dependencies"]["serve"] and "| starlette | `>=1.0` |" in page


#: Files an editor or a patch leaves beside an encoding, planted in the copy the wheel is built from.
BACKUPS = ["code.lp~", "#code.lp#", ".#code.lp", ".mastermind.pl.swp", "mastermind.pl.bak", "feedback.lp.orig"]


def test_wheel_ships_the_encodings(tmp_path):
    # Built from a copy of the project with an editor's backups planted among the encodings:
    # the wheel holds every encoding, inside the package, and none of the backups.
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "mm_logic", project / "mm_logic", ignore=shutil.ignore_patterns("__pycache__"))
    for name in BACKUPS:
        (project / "mm_logic" / "encodings" / name).write_text("% a backup\n")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(project)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("mmlogic-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.name for p in (ROOT / "mm_logic" / "encodings").iterdir() if p.suffix in (".lp", ".pl")}
    assert {"mastermind.lp", "mastermind.pl", "code.lp", "feedback.lp"} <= shipped
    # exactly the encodings: every one of them, and no backup
    assert {name for name in names if name.startswith("mm_logic/encodings/")} == {
        f"mm_logic/encodings/{name}" for name in shipped}
    assert "mm_logic/cli/__init__.py" in names
    assert "mm_logic/engines/swipl/bridge.pl" in names  # the Prolog half of the swipl adapter
    # The web page of `mmlogic serve`: plain files, no build step.
    assert {f"mm_logic/server/static/{name}" for name in ("index.html", "main.js", "feedback.js", "style.css",
                                                         "reference.html", "reference.js")} <= names
    assert not [name for name in names if "#" in name or name.endswith(("~", ".swp", ".bak", ".orig"))]


def test_console_script_runs():
    from pathlib import Path
    script = Path(sys.executable).parent / "mmlogic"
    result = subprocess.run([str(script), "next", "--backend", "python", "--json", "0011:1,0", "2345:0,2"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == '{"guess": "0223", "consistent": 60}\n'


def test_benchmark_table_is_filled():
    # The table py/benchmarks.py prints: in the README until the figures moved to docs/results/.
    text = (ROOT / "docs" / "results" / "benchmarks.md").read_text()
    assert "BENCHMARK_TABLE" not in text
    assert "| Knuth 4x6, every secret |" in text


def test_ruff_finds_nothing():
    """The lint configuration in pyproject.toml holds for the package, the tests and the scripts."""
    from pathlib import Path
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", "--no-cache", "mm_logic", "tests", "py"], cwd=ROOT,
                            capture_output=True, text=True)
    assert (result.returncode, result.stdout.strip()) == (0, "All checks passed!"), result.stdout
