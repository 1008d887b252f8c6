"""What a journal of ``mmlogic optimal`` tells of its search: the parts settled, the positions searched and how fast.

A search of hours keeps each part of an opening, and each guess at a part it splits, as a line of its
``--journal`` file, with the positions and seconds that line's search took (journal lines written since
the journal kept them; lines read back from an earlier run, or settled by their guesses, have none). This
reads such a file, while the search runs or after, and prints part by part what was settled, then the
totals: positions, core-seconds (each line's seconds are its search's CPU time), and positions a second a worker,
the rate quoted in ``docs/results/optimal.md``.

Usage::

    .venv/bin/python py/tools/journal_effort.py 4x10-expected.jsonl
    .venv/bin/python py/tools/journal_effort.py 4x10-expected.jsonl --json

Each part is ``opening feedback``: ``exact`` with its cost, ``at least`` with the bound its search proved,
or ``open`` (guesses at it settled, the part not yet); with the number of its guesses searched when it
was split (``--split-above``); ``effort not kept`` where none of its lines says what it took.

A file that is no journal, or a line of it whose fields are not of the types the search writes (a damaged
or edited line), is refused in one line, as ``mmlogic optimal --journal`` refuses it (exit 2); a last line
without its end of line (cut short by a kill, or still being written) is left out.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# The reader's own checks of a line's fields, so that this refuses a line in the words `mmlogic optimal` does.
from mm_logic.notation import json_lines
from mm_logic.optimal.journal import KIND, LineRefused, _json, _number, _whole, check_fields, read_line
from mm_logic.support.errors import BadInput
from mm_logic.support.files import read_text
from mm_logic.support.scripting import run


def read(path: Path) -> tuple[dict, list[dict]]:
    """The journal's header and its lines (a last line cut short by a kill is left out); a line that is no
    part's result is refused as ``mmlogic optimal --journal`` refuses it, with the field that is wrong."""
    try:
        # Not Path.read_text: a FIFO would be waited on for ever, a device read until memory ran out.
        text = read_text(path, "journal")
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"cannot read {path}: {getattr(error, 'strerror', None) or 'not text'}") from None
    lines = json_lines(text)  # as optimal reads them
    if not text.endswith("\n") and len(lines) > 1:
        lines = lines[:-1]  # cut short by a kill while it was written (or being written as this reads)
    try:
        head = json.loads(lines[0]) if lines else None
    except (json.JSONDecodeError, RecursionError):
        head = None
    if not isinstance(head, dict) or head.get("journal") != KIND:
        raise BadInput(f"{path} is not a journal of mmlogic optimal (its first line names none)")
    entries = []
    for number, line in enumerate(lines[1:], 2):
        try:
            entries.append(checked(read_line(line)))
        except LineRefused as why:
            raise BadInput(f"{path}: line {number} is not a part's result: {why}") from None
    return head, entries


def checked(entry) -> dict:
    """A line's fields of the types the search writes, as ``mmlogic optimal`` checks them (its
    :class:`~mm_logic.optimal.journal.LineChecks` also replays them on the game's codes, which a summary needs
    not); raises :class:`LineRefused` with why."""
    check_fields(entry)
    for name, kind in (("opening", "a code"), ("feedback", "feedback"), ("guess", "a code")):
        if (name in entry or name != "guess") and not isinstance(entry[name], str):
            raise LineRefused(f'"{name}" must be {kind}, not {_json(entry[name])}')
    within = "within" in entry
    if within and "value" in entry:
        raise LineRefused('it has both "within" and "value"')
    _whole(entry, "depth", null=not within)
    if "positions" in entry:
        _whole(entry, "positions")
    if "seconds" in entry and not (_number(entry["seconds"]) and entry["seconds"] >= 0):
        raise LineRefused(f'"seconds" must be a finite number of at least 0, not {_json(entry["seconds"])}')
    if within:
        if not isinstance(entry["within"], bool):
            raise LineRefused(f'"within" must be true or false, not {_json(entry["within"])}')
    else:
        _whole(entry, "value")
        _whole(entry, "budget")
    return entry


def summary(head: dict, entries: list[dict]) -> dict:
    """Part by part (in the order first met): what is settled, the guesses searched, positions and seconds;
    and the totals."""
    parts: dict[tuple, dict] = {}
    for entry in entries:
        key = (entry["opening"], entry["feedback"], entry["depth"])
        part = parts.setdefault(key, {"opening": key[0], "feedback": key[1], "depth": key[2], "state": "open",
                                      "value": None, "guesses": 0, "positions": 0, "seconds": 0.0, "measured": 0})
        part["positions"] += entry.get("positions", 0)
        part["seconds"] += entry.get("seconds", 0.0)
        part["measured"] += "positions" in entry
        if "guess" in entry:
            part["guesses"] += 1
        elif "within" in entry:
            part["state"] = "within" if entry["within"] else "not within"
        else:
            exact = entry["value"] < entry["budget"]
            part["state"], part["value"] = ("exact" if exact else "at least"), entry["value"]
    positions = sum(p["positions"] for p in parts.values())
    seconds = sum(p["seconds"] for p in parts.values())
    return {"rules": head.get("rules"), "consistent_only": head.get("consistent_only"),
            "parts": list(parts.values()), "settled": sum(p["state"] != "open" for p in parts.values()),
            "guess_lines": sum(p["guesses"] for p in parts.values()), "positions": positions,
            "seconds": round(seconds, 3), "rate": round(positions / seconds) if seconds else None}


def text(found: dict) -> str:
    """The summary as lines for a person."""
    lines = []
    for p in found["parts"]:
        state = p["state"] if p["value"] is None else f"{p['state']} {p['value']:,}"
        depth = "" if p["depth"] is None else f" within {p['depth']}"
        guesses = f", {p['guesses']} guess{'' if p['guesses'] == 1 else 'es'} searched" if p["guesses"] else ""
        effort = f"{p['positions']:,} position{'' if p['positions'] == 1 else 's'} in {p['seconds']:,.1f} s" \
            if p["measured"] else "effort not kept"
        lines.append(f"{p['opening']} {p['feedback']}{depth}: {state}{guesses}; {effort}")
    rate = "" if found["rate"] is None else f": {found['rate']:,} positions a second a worker"
    lines.append(f"{found['settled']} of {len(found['parts'])} parts settled, {found['guess_lines']} guess lines; "
                 f"{found['positions']:,} positions in {found['seconds']:,.1f} core-seconds{rate}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("journal", type=Path, help="the --journal file of mmlogic optimal")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    found = summary(*read(args.journal))
    print(json.dumps(found, indent=1) if args.json else text(found))


if __name__ == "__main__":
    run(main)
