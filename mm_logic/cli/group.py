"""The ``mmlogic`` group's class: every error one line on stderr and the contract's exit code, never a traceback."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import re
import sys

import click

from ..notation import bytes_as_typed
from ..support.errors import MMLogicError, line_breaks_escaped, one_line
from ..support.interrupts import endings_as_interrupts, interrupted_code, wrapped_interrupt

#: The errors of writing to a full or failing device: said as such, not as an internal failure.
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class Interrupted(Exception):
    """Ctrl-C, carried past click: click answers a KeyboardInterrupt with an empty line on stderr
    before its Abort, and the contract's answer is the one line ``interrupted``."""


class MMLogicGroup(click.Group):
    """A click group whose errors are one line each, never a traceback.

    Its commands may be named before they are imported (:meth:`add_lazy_command`): a command's module
    is imported when the command is looked up (to run it, or to list it in ``--help``), and
    :attr:`commands` imports all of them, as click's own groups hold them.
    """

    def __init__(self, *args, **kwargs):
        #: Command name -> ``module:function``, not imported yet.
        self._lazy: dict[str, str] = {}
        super().__init__(*args, **kwargs)

    @property
    def commands(self) -> dict[str, click.Command]:
        for name in list(self._lazy):
            self._load(name)
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def add_lazy_command(self, name: str, where: str) -> None:
        """Name the command ``name``, the function ``where`` (``package.module:function``), imported when used."""
        self._lazy[name] = where

    def _load(self, name: str) -> None:
        module, function = self._lazy.pop(name).split(":")
        self._commands[name] = getattr(importlib.import_module(module), function)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        name = name or cmd.name
        self._lazy.pop(name, None)
        self._commands[name] = cmd

    def get_command(self, ctx, cmd_name):
        if cmd_name in self._lazy:
            self._load(cmd_name)
        return self._commands.get(cmd_name)

    def list_commands(self, ctx):
        return sorted({*self._commands, *self._lazy})

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None
        except SystemError as error:
            if wrapped_interrupt(error):  # Ctrl-C in a numba kernel called outside a game
                raise Interrupted from None
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        with endings_as_interrupts():  # SIGTERM, SIGHUP: the clean path of Ctrl-C, their own exit code
            sys.exit(self._run(args, prog_name, complete_var, **extra))

    def _run(self, args, prog_name, complete_var, **extra) -> int:
        """Run the command: its exit code, every error said in one line."""
        try:
            rv = super().main(args, prog_name or "mmlogic", complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help() if e.ctx else str(e))
            code = 2
        except click.ClickException as e:
            # click quotes with repr(); a line break of a file's name or a module's message is escaped: one line.
            click.echo(f"error: {long_words_cut(line_breaks_escaped(bytes_as_typed(e.format_message())))}", err=True)
            code = e.exit_code
        except MMLogicError as e:
            click.echo(f"error: {line_breaks_escaped(bytes_as_typed(str(e)))}", err=True)
            code = e.exit_code
        except (Interrupted, KeyboardInterrupt, click.Abort):
            code = interrupted_code()
            # A second Ctrl-C while this is said (one sent to the process and to its parent, as
            # `timeout` forwards it) printed a traceback.
            with contextlib.suppress(KeyboardInterrupt):
                # On a terminal the ^C ends a line first; elsewhere the line is alone.
                click.echo(("\n" if sys.stderr.isatty() else "") + "interrupted", err=True)
        except (BrokenPipeError, EOFError):
            code = 1
        except Exception as e:  # noqa: BLE001 - the contract: one line, never a traceback
            if os.environ.get("MMLOGIC_DEBUG"):
                raise
            if isinstance(e, OSError) and e.errno in OUTPUT_ERRNOS and not e.filename:
                # A full disk (or quota, or a failing device) under stdout is the system's failure, not ours.
                click.echo(f"error: cannot write the output: {(e.strerror or str(e)).lower()}", err=True)
            else:
                click.echo(f"error: internal failure: {type(e).__name__}: {one_line(str(e))} (set MMLOGIC_DEBUG=1 "
                           "for details)",
                           err=True)
            code = 1
        return code


#: The longest word of click's own messages written whole; a longer one (an argument of 5,000 digits) is cut.
LONGEST_WORD = 60
#: A word that may be a file's name is never cut: one without a ``/`` longer than this (NAME_MAX) is none.
LONGEST_FILE_NAME = 255


def long_words_cut(text: str) -> str:
    """``text`` with each word that cannot be a file's name (no ``/`` and longer than :data:`LONGEST_FILE_NAME`)
    cut to its first :data:`LONGEST_WORD` characters and its length: click quotes a mistyped argument whole
    (``Got unexpected extra argument (000:999...)``, 5,000 characters a line), while a path is the user's to read.

    >>> long_words_cut("Got unexpected extra argument " + "9" * 5000).replace("9" * 60, "9...9")
    'Got unexpected extra argument 9...9… (5,000 characters)'
    >>> long_words_cut("cannot write /tmp/" + "d" * 300) == "cannot write /tmp/" + "d" * 300
    True
    """
    def cut(match: re.Match) -> str:
        word = match.group(0)
        return word if "/" in word else f"{word[:LONGEST_WORD]}… ({len(word):,} characters)"
    return re.sub(rf"\S{{{LONGEST_FILE_NAME + 1},}}", cut, text)
