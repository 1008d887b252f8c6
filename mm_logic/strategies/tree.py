"""Strategy trees: a deterministic strategy written out as guesses and feedbacks.

A :class:`TreeNode` is the guess played at one history and, for every
feedback that guess can get (except the win), the subtree played next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..notation import Code, Feedback


@dataclass
class TreeNode:
    """The guess played at one history, and the subtree after each non-winning feedback."""

    guess: Code
    children: dict[Feedback, TreeNode] = field(default_factory=dict)
