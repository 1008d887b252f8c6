"""Where the compiled kernels are cached when numba has no place of its own (mm_logic/kernels/numba_cache.py).

A system-wide install run by an account whose home is read-only ended every
command on numba's RuntimeError ("cannot cache function ...: no locator
available") while the package was imported. The tests run as root, to whom
every folder is writable, so numba's own two places are made unwritable here
by replacing the check.
"""

from __future__ import annotations

import os
import stat
import tempfile

import numba
import pytest

from mm_logic.kernels import numba_cache


@pytest.fixture(autouse=True)
def numbas_setting_left_as_found():
    """Each test leaves NUMBA_CACHE_DIR and numba's setting as it found them: a leaked NUMBA_CACHE_DIR sent
    every later subprocess to a cold cache.

    Checked after each test, whatever the order or the tests chosen (a last test that checked after
    the others passed with nothing to check when run alone or first). An autouse fixture is set up
    before the test's ``monkeypatch``, so it checks after monkeypatch has undone its changes.
    """
    found = os.environ.get("NUMBA_CACHE_DIR"), numba.config.CACHE_DIR
    yield
    assert (os.environ.get("NUMBA_CACHE_DIR"), numba.config.CACHE_DIR) == found


def test_the_private_folder_is_made_for_this_account_alone(tmp_path):
    folder = numba_cache.private_folder(tmp_path)
    assert folder == tmp_path / f"mmlogic-numba-{os.getuid()}"
    info = folder.lstat()
    assert (stat.S_ISDIR(info.st_mode), stat.S_IMODE(info.st_mode), info.st_uid) == (True, 0o700, os.getuid())
    assert numba_cache.private_folder(tmp_path) == folder  # found again, as it is


def test_a_folder_others_can_write_or_another_account_made_is_not_used(tmp_path, monkeypatch):
    # A cache holds code numba runs: a folder planted in /tmp by someone else must not be trusted.
    planted = tmp_path / f"mmlogic-numba-{os.getuid()}"
    planted.mkdir()
    planted.chmod(0o777)
    assert numba_cache.private_folder(tmp_path) is None
    planted.chmod(0o700)
    assert numba_cache.private_folder(tmp_path) == planted
    monkeypatch.setattr(os, "getuid", lambda: 12345)  # now the account differs from the folder's owner
    (tmp_path / "mmlogic-numba-12345").symlink_to(planted)
    assert numba_cache.private_folder(tmp_path) is None  # a link, and not this account's folder


def no_cache_dir(monkeypatch) -> None:
    """No NUMBA_CACHE_DIR, in numba's settings and the environment; both as they were after the test.

    (setenv first: delenv of a variable that is not set records nothing to undo, and choose_cache
    sets it, for numba re-reads its settings from the environment when it compiles.)
    """
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    monkeypatch.delenv("NUMBA_CACHE_DIR")


@pytest.fixture
def no_place_of_numbas_own(monkeypatch, tmp_path):
    """numba's folders unwritable, the temporary directory ``tmp_path``; numba's setting restored after."""
    no_cache_dir(monkeypatch)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    real = numba_cache.writable
    monkeypatch.setattr(numba_cache, "writable",
                        lambda folder: str(folder).startswith(str(tmp_path)) and real(folder))


def test_without_a_place_of_numbas_own_the_kernels_go_to_the_private_folder(no_place_of_numbas_own, tmp_path):
    assert numba_cache.choose_cache() is True
    expected = str(tmp_path / f"mmlogic-numba-{os.getuid()}")
    assert (numba.config.CACHE_DIR, os.environ["NUMBA_CACHE_DIR"]) == (expected, expected)


def test_with_no_folder_at_all_the_kernels_are_compiled_uncached(no_place_of_numbas_own, tmp_path, monkeypatch):
    monkeypatch.setattr(numba_cache, "private_folder", lambda parent=None: None)
    assert numba_cache.choose_cache() is False
    assert (numba.config.CACHE_DIR, "NUMBA_CACHE_DIR" in os.environ) == ("", False)


def test_numbas_own_places_and_the_users_setting_are_left_alone(monkeypatch, tmp_path):
    no_cache_dir(monkeypatch)
    assert numba_cache.choose_cache() is True  # the source's __pycache__ is writable here
    assert (numba.config.CACHE_DIR, "NUMBA_CACHE_DIR" in os.environ) == ("", False)
    mine = str(tmp_path / "mine")
    monkeypatch.setattr(numba.config, "CACHE_DIR", mine)
    monkeypatch.setattr(numba_cache, "writable", lambda folder: False)
    assert (numba_cache.choose_cache(), numba.config.CACHE_DIR) == (True, mine)
