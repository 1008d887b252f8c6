"""The ``mmlogic`` group's class: every error one line on stderr and the contract's exit code, never a traceback."""

from __future__ import annotations

import contextlib
import errno
import os
import sys

import click

from ..errors import MMLogicError, one_line
from ..interrupts import endings_as_interrupts, interrupted_code, wrapped_interrupt
from ..notation import bytes_as_typed

#: The errors of writing to a full or failing device: said as such, not as an internal failure.
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class Interrupted(Exception):
    """Ctrl-C, carried past click: click answers a KeyboardInterrupt with an empty line on stderr
    before its Abort, and the contract's answer is the one line ``interrupted``."""


class MMLogicGroup(click.Group):
    """A click group whose errors are one line each, never a traceback."""

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
            click.echo(f"error: {bytes_as_typed(e.format_message())}", err=True)  # click quotes with repr()
            code = e.exit_code
        except MMLogicError as e:
            click.echo(f"error: {bytes_as_typed(str(e))}", err=True)
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

