"""The feedback rule is a value: no module outside the game's definitions branches on a rule's name.

A rule declares what the tools need of it (its kernels, symmetries, notation, JSON, encoding parts:
:class:`mm_logic.feedback.FeedbackRule`), so that a rule of one's own is played by every tool. This
test reads the package's source and fails on a comparison with a built-in rule's name, a table keyed
by the names, or the ``Rules.standard`` shortcut, anywhere but in ``mm_logic/feedback/`` and the code
space (``mm_logic/codespace.py``), which implement the rules.
"""

from __future__ import annotations

import ast

from conftest import ROOT

NAMES = {"standard", "black", "positional"}
#: Where the rules themselves are implemented.
ALLOWED = ("mm_logic/feedback/", "mm_logic/codespace.py")


def named(node: ast.AST) -> bool:
    """A rule's name as a literal, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(named(item) for item in node.elts)
    return False


def branches(tree: ast.AST) -> list[tuple[int, str]]:
    """The lines that branch on a rule's name, and what each does."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and (named(node.left) or any(named(c) for c in node.comparators)):
            found.append((node.lineno, "compares with a rule's name"))
        elif isinstance(node, ast.Dict) and any(key is not None and named(key) for key in node.keys):
            found.append((node.lineno, "keys a table by rule names"))
        elif isinstance(node, ast.Attribute) and node.attr == "standard" and not isinstance(node.ctx, ast.Store):
            found.append((node.lineno, "asks whether the rule is the standard one"))
    return found


def test_no_module_outside_the_rules_branches_on_a_rule_name():
    offenders = []
    for path in sorted((ROOT / "mm_logic").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(ALLOWED):
            continue
        for line, what in branches(ast.parse(path.read_text(), filename=relative)):
            offenders.append(f"{relative}:{line}: {what}")
    assert offenders == []


def test_the_check_finds_such_branches():
    source = ('if rules.feedback == "positional": pass\n'
              'PARTS = {"standard": 1}\n'
              'x = rules.standard\n'
              'y = rule.name in ("black", "other")\n'
              'z = rule.kernel\n')
    assert sorted(branches(ast.parse(source))) == [
        (1, "compares with a rule's name"), (2, "keys a table by rule names"),
        (3, "asks whether the rule is the standard one"), (4, "compares with a rule's name")]
