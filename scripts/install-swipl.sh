#!/usr/bin/env bash
# Provision a janus-capable SWI-Prolog (>= 9.1.12) and the PyPI package
# janus-swi into a Python virtualenv, so that the `swipl` engine of mm_logic
# can run.
#
#   usage: bash scripts/install-swipl.sh VENV_DIR
#
# What it does (see shared/notes/swi-prolog.md for why each step is needed):
#   1. If VENV_DIR/bin/swipl or a `swipl` on PATH is >= 9.1.12, use it.
#   2. Otherwise unpack Debian 13 (trixie)'s `swi-prolog-core` into the private
#      prefix VENV_DIR/opt/swipl. Debian 12 only has 9.0.4, which janus-swi
#      refuses, and installing trixie's package with apt would pull a new libc
#      and libstdc++ into the machine; so the .deb is only *downloaded*, with a
#      private apt configuration that leaves the system's apt state untouched,
#      and unpacked with `dpkg -x`.
#   3. Post-install steps Debian's maintainer scripts would do: the autoload
#      library index, libswipl.so{,.9} symlinks under <PLBASE>/lib/<arch>, and
#      a VENV_DIR/bin/swipl wrapper that sets SWI_HOME_DIR and LD_LIBRARY_PATH.
#   4. VENV_DIR/bin/pip install janus-swi (built from source against that
#      swipl: there is no Linux wheel).
#   5. Verify through mm_logic.engines.swipl.runtime.load_janus(): load clpfd,
#      run a small query, print the versions.
#
# Idempotent: a second run finds everything in place and only re-verifies.
# Needs no stdin and no root (root only silences apt's sandbox warning); it
# never installs or upgrades system packages.
set -Eeuo pipefail

MIN_VERSION=90112          # 9.1.12, as PLVERSION encodes it (major*10000+minor*100+patch)
JANUS_VERSION=1.5.3        # janus-swi release checked to build against 9.2.x
SWIPL_SUITE=trixie         # Debian suite whose swi-prolog-core is new enough
SWIPL_PACKAGE=swi-prolog-core

say() { printf 'install-swipl: %s\n' "$*"; }
die() { printf 'install-swipl: ERROR: %s\n' "$*" >&2; exit 1; }
trap 'rc=$?; printf "install-swipl: ERROR: command failed (exit %s) at line %s: %s\n" "$rc" "$LINENO" "$BASH_COMMAND" >&2; exit "$rc"' ERR

[ $# -eq 1 ] || die "usage: bash scripts/install-swipl.sh VENV_DIR"
[ -d "$1" ] || die "$1 is not a directory: create the virtualenv first (python3 -m venv $1)"
VENV=$(cd "$1" && pwd -P)
PY="$VENV/bin/python"
[ -x "$PY" ] || die "$VENV is not a virtualenv (no bin/python): create it with python3 -m venv $1"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
PREFIX="$VENV/opt/swipl"
WRAPPER="$VENV/bin/swipl"
START=$SECONDS

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

# Print the PLVERSION (e.g. 90209) of the swipl given as $1, or fail.
# `--dump-runtime-variables` is what janus-swi's build runs too, so a swipl
# for which it fails (e.g. a missing library index) is of no use anyway.
swipl_plversion() {
    local out v
    out=$(timeout 60 "$1" --dump-runtime-variables 2>/dev/null </dev/null) || return 1
    v=$(sed -n 's/^PLVERSION="\([0-9][0-9]*\)";$/\1/p' <<<"$out")
    [ -n "$v" ] || return 1
    # The test suite runs plunit, and the time limit may use library(time):
    # a swipl without them (Debian's bare swi-prolog-core) is not enough.
    timeout 60 "$1" -q -g "use_module(library(plunit)),use_module(library(time)),halt" -t "halt(1)" \
        </dev/null >/dev/null 2>&1 || return 1
    printf '%s\n' "$v"
}

pretty_version() {  # 90209 -> 9.2.9
    printf '%d.%d.%d\n' $(($1 / 10000)) $(($1 / 100 % 100)) $(($1 % 100))
}

# True when the swipl $1 runs and is new enough; sets FOUND_VERSION.
swipl_ok() {
    local v
    [ -x "$1" ] || return 1
    v=$(swipl_plversion "$1") || return 1
    FOUND_VERSION=$v
    [ "$v" -ge "$MIN_VERSION" ]
}

# The private apt configuration: only TMP's files, the system's lists, cache
# and sources stay untouched (apt.conf.d settings, e.g. proxies, still apply).
APT_OPTS=()
setup_private_apt() {
    local src="/etc/apt/sources.list.d/debian.sources" stanza
    mkdir -p "$TMP/apt/lists/partial" "$TMP/apt/cache/archives/partial" \
        "$TMP/apt/sources.d" "$TMP/apt/prefs.d" "$TMP/debs"
    # Copy the system's own Debian stanza with another Suites: line, so no
    # mirror address is written down here. The host suite (bookworm) is kept
    # next to trixie for libtcmalloc-minimal4 (see fetch_debs).
    if [ -r "$src" ]; then
        # First deb822 stanza that is not the security archive.
        stanza=$(awk 'BEGIN { RS = ""; ORS = "\n" }
                      !/Suites:[^\n]*-security/ && /Types:[^\n]*deb/ { print; exit }' "$src" \
                 | grep -v '^#' || true)
        [ -n "$stanza" ] || die "no usable stanza in $src"
        sed -E "s/^Suites:.*/Suites: $SWIPL_SUITE $HOST_SUITE/" <<<"$stanza" >"$TMP/apt/sources.d/mmlogic.sources"
    elif [ -r /etc/apt/sources.list ]; then
        # One-line format: reuse the first plain `deb` line's options and URI.
        stanza=$(grep -E '^deb[[:space:]]' /etc/apt/sources.list | grep -v -- '-security' | head -n1 || true)
        [ -n "$stanza" ] || die "no usable deb line in /etc/apt/sources.list"
        local head
        head=$(sed -E 's/^(deb[[:space:]]+(\[[^]]*\][[:space:]]+)?[^[:space:]]+).*/\1/' <<<"$stanza")
        printf '%s %s main\n%s %s main\n' "$head" "$SWIPL_SUITE" "$head" "$HOST_SUITE" \
            >"$TMP/apt/sources.d/mmlogic.list"
    else
        die "cannot find the system's Debian apt sources (looked for $src and /etc/apt/sources.list)"
    fi
    APT_OPTS=(
        -o "Dir::State::Lists=$TMP/apt/lists"
        -o "Dir::Cache=$TMP/apt/cache"
        -o "Dir::Etc::SourceList=/dev/null"
        -o "Dir::Etc::SourceParts=$TMP/apt/sources.d"
        -o "Dir::Etc::Preferences=/dev/null"
        -o "Dir::Etc::PreferencesParts=$TMP/apt/prefs.d"
        -o "Acquire::Languages=none"
    )
    # As root, apt drops to user _apt for downloads, which cannot write into
    # our 0700 temp directory; the files are only unpacked, never installed.
    if [ "$(id -u)" -eq 0 ]; then APT_OPTS+=(-o "APT::Sandbox::User=root"); fi
}

fetch_debs() {
    say "fetching $SWIPL_PACKAGE from Debian $SWIPL_SUITE (private apt lists, system apt state untouched)"
    setup_private_apt
    apt-get "${APT_OPTS[@]}" -qq update >"$TMP/apt.log" 2>&1 \
        || { cat "$TMP/apt.log" >&2; die "apt-get update with the private $SWIPL_SUITE source failed"; }
    # libtcmalloc_minimal.so.4 is needed by the swipl *executable* (libswipl.so
    # itself does not use it, so janus inside Python never needs it). It is
    # downloaded and unpacked privately too, from the host's own suite, rather
    # than `apt-get install`ed: that needs no root, changes nothing on the
    # system, and works the same on a machine where apt is locked or offline
    # for system installs. Trixie's build of it (libtcmalloc-minimal4t64) is
    # not used because it is built against a newer libstdc++.
    # swi-prolog-core-packages holds plunit and library(time) among others.
    local pkgs=("$SWIPL_PACKAGE/$SWIPL_SUITE" "swi-prolog-core-packages/$SWIPL_SUITE")
    if ! ldconfig -p 2>/dev/null | grep -q 'libtcmalloc_minimal\.so\.4 '; then
        pkgs+=("libtcmalloc-minimal4/$HOST_SUITE")
    fi
    (cd "$TMP/debs" && apt-get "${APT_OPTS[@]}" -qq download "${pkgs[@]}") >>"$TMP/apt.log" 2>&1 \
        || { cat "$TMP/apt.log" >&2; die "apt-get download ${pkgs[*]} failed"; }
}

provision_private() {
    if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
        die "no swipl >= $(pretty_version $MIN_VERSION) found, and apt-get/dpkg-deb are missing to provision one: install SWI-Prolog >= 9.1.12 (e.g. from swi-prolog.org) and re-run"
    fi
    # shellcheck disable=SC1091
    HOST_SUITE=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
    [ -n "$HOST_SUITE" ] || die "cannot tell the Debian release from /etc/os-release"
    # Unpack into a staging folder next to the final prefix, then move it in
    # place: an interrupted run never leaves a half-made prefix behind (and
    # its leftovers are removed here or by the next run).
    local stage="$PREFIX.partial.$$" deb names=()
    rm -rf "$PREFIX".partial.*
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/install-swipl.XXXXXX")
    # shellcheck disable=SC2064  # expand now: these are locals
    trap "rm -rf '$TMP' '$stage'" EXIT
    fetch_debs

    mkdir -p "$stage"
    for deb in "$TMP"/debs/*.deb; do
        dpkg-deb -x "$deb" "$stage"
        names+=("$(basename "$deb")")
    done
    say "unpacked ${names[*]}"

    # Debian layout: PLBASE is usr/lib/swi-prolog, the real binary is
    # <PLBASE>/bin/<arch>/swipl, the library is usr/lib/<multiarch>/libswipl.so.9.
    local plbase="$stage/usr/lib/swi-prolog" bin libswipl arch libdir
    bin=$(find "$plbase/bin" -mindepth 2 -maxdepth 2 -type f -name swipl | head -n1)
    [ -n "$bin" ] || die "no swipl binary in the unpacked $SWIPL_PACKAGE"
    arch=$(basename "$(dirname "$bin")")                     # e.g. x86_64-linux
    libswipl=$(find "$stage/usr/lib" -maxdepth 2 -name 'libswipl.so.9' | head -n1)
    [ -n "$libswipl" ] || die "no libswipl.so.9 in the unpacked $SWIPL_PACKAGE"
    libdir=$(dirname "$libswipl")                             # e.g. usr/lib/x86_64-linux-gnu

    # Every shared library the binary needs must resolve (libgmp, zlib,
    # libtinfo and libc come from Debian 12 itself; tcmalloc from above).
    local missing
    missing=$(LD_LIBRARY_PATH="$libdir" ldd "$bin" "$libswipl" 2>&1 | grep 'not found' | sort -u || true)
    [ -z "$missing" ] || die "the unpacked swipl misses shared libraries: $(tr '\n' ' ' <<<"$missing")"

    # janus-swi links with -L<PLBASE>/lib/<arch> -lswipl and records that
    # folder as its RUNPATH, so the library must be reachable from there.
    # Relative links keep the tree movable as a whole.
    mkdir -p "$plbase/lib/$arch"
    local rel="../../../${libdir#"$stage/usr/lib/"}/libswipl.so.9"
    ln -sfn "$rel" "$plbase/lib/$arch/libswipl.so.9"
    ln -sfn "$rel" "$plbase/lib/$arch/libswipl.so"

    # The autoload index Debian's postinst builds; without it even
    # --dump-runtime-variables fails (Unknown procedure prolog_config:maplist/3).
    SWI_HOME_DIR="$plbase" LD_LIBRARY_PATH="$libdir" \
        "$bin" -q -g "make_library_index(swi(library))" -t halt </dev/null \
        || die "building the SWI-Prolog library index failed"

    rm -rf "$PREFIX"
    mkdir -p "$(dirname "$PREFIX")"
    mv -T "$stage" "$PREFIX"

    # The wrapper: absolute paths, like the rest of a virtualenv's bin/.
    local final_libdir="$PREFIX/${libdir#"$stage/"}"
    local final_bin="$PREFIX/${bin#"$stage/"}"
    cat >"$WRAPPER.tmp" <<EOF
#!/bin/sh
# SWI-Prolog privately unpacked into this virtualenv by scripts/install-swipl.sh
# (mmlogic). The Debian build looks for its home and libswipl.so.9 in /usr;
# point it at the private prefix instead.
SWI_HOME_DIR='$PREFIX/usr/lib/swi-prolog'
LD_LIBRARY_PATH='$final_libdir'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export SWI_HOME_DIR LD_LIBRARY_PATH
exec '$final_bin' "\$@"
EOF
    chmod 755 "$WRAPPER.tmp"
    mv -f "$WRAPPER.tmp" "$WRAPPER"

    swipl_ok "$WRAPPER" || die "the provisioned $WRAPPER does not run or is too old"
    rm -rf "$TMP"
    trap - EXIT
}

# ---------------------------------------------------------------------------
# 1-3. A SWI-Prolog >= 9.1.12
# ---------------------------------------------------------------------------
SWIPL=""
FOUND_VERSION=""
if swipl_ok "$WRAPPER"; then
    SWIPL=$WRAPPER
    say "using $WRAPPER (SWI-Prolog $(pretty_version "$FOUND_VERSION"))"
else
    # Any swipl on PATH other than this venv's own wrapper.
    while IFS= read -r cand; do
        [ "$cand" = "$WRAPPER" ] && continue
        if swipl_ok "$cand"; then
            SWIPL=$cand
            say "using $cand from PATH (SWI-Prolog $(pretty_version "$FOUND_VERSION"))"
            break
        elif [ -n "$FOUND_VERSION" ]; then
            say "ignoring $cand: SWI-Prolog $(pretty_version "$FOUND_VERSION") is older than $(pretty_version $MIN_VERSION)"
        fi
        FOUND_VERSION=""
    done < <(type -ap swipl || true)
fi
if [ -z "$SWIPL" ]; then
    say "no SWI-Prolog >= $(pretty_version $MIN_VERSION) found: provisioning a private one in $PREFIX"
    provision_private
    SWIPL=$WRAPPER
    say "installed $WRAPPER (SWI-Prolog $(pretty_version "$FOUND_VERSION"))"
fi

# janus-swi's build runs `swipl` from PATH: put the chosen one first.
PATH="$(dirname "$SWIPL"):$PATH"
export PATH

# ---------------------------------------------------------------------------
# 4-5. janus-swi, then the end-to-end check
# ---------------------------------------------------------------------------
# The check goes through the project's own loader, exactly as the engine will.
# The packages mm_logic and mm_logic.engines are stood in for by bare package
# objects, so that their __init__ (which imports numpy and the rest of the
# project's dependencies) does not run: this checks SWI-Prolog and janus
# only, in any venv. Exit 3 means load_janus() itself failed.
VERIFY='
import sys, types
repo = sys.argv[1]
for name, path in (("mm_logic", repo + "/mm_logic"), ("mm_logic.engines", repo + "/mm_logic/engines")):
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package
from mm_logic.support.errors import BackendUnavailable
from mm_logic.engines.swipl.runtime import load_janus
try:
    janus = load_janus()
except BackendUnavailable as exc:
    print("install-swipl: load_janus() failed: %s" % exc, file=sys.stderr)
    sys.exit(3)
janus.query_once("use_module(library(clpfd))")
sols = [s["X"] for s in janus.query("X in 1..4, X #\\= 2, label([X])")]
if sols != [1, 3, 4]:
    sys.exit("install-swipl: ERROR: clpfd query returned %r, expected [1, 3, 4]" % (sols,))
assert load_janus() is janus, "load_janus() is not cached"
v = janus.query_once("current_prolog_flag(version, V)")["V"]
from importlib.metadata import version
print("install-swipl: ok: SWI-Prolog %d.%d.%d, janus-swi %s, clpfd works"
      % (v // 10000, v // 100 % 100, v % 100, version("janus-swi")))
'
verify() {
    # The wrapper's folder is first on PATH, so find_swipl() sees the same
    # swipl as the build did even outside the venv's bin/.
    "$PY" -c "$VERIFY" "$REPO"
}

install_janus() {
    # Python.h is needed to compile the extension (there is no Linux wheel).
    "$PY" - <<'EOF' || die "Python headers (Python.h) are missing for $PY: install the python3-dev package matching this interpreter"
import os, sys, sysconfig
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)
EOF
    # --no-cache-dir: a wheel cached by an earlier build records *that*
    # swipl's library folder as RUNPATH; always build against this one.
    "$PY" -m pip install -qq --disable-pip-version-check --no-cache-dir "$@" "janus-swi==$JANUS_VERSION" </dev/null \
        || die "pip install janus-swi==$JANUS_VERSION failed (it builds from source against $SWIPL; needs gcc)"
}

BUILT=no
if "$PY" -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("janus_swi") else 1)' 2>/dev/null; then
    say "janus-swi already installed in $VENV"
else
    say "building janus-swi==$JANUS_VERSION against $SWIPL"
    install_janus
    BUILT=yes
fi

say "verifying janus + clpfd through mm_logic.engines.swipl.runtime.load_janus()"
rc=0
verify || rc=$?
if [ "$rc" -eq 3 ] && [ "$BUILT" = no ]; then
    # A janus-swi that was already there but does not load was most likely
    # built against another SWI-Prolog: rebuild it against this one, once.
    say "rebuilding janus-swi==$JANUS_VERSION against $SWIPL and retrying"
    install_janus --force-reinstall --no-deps
    rc=0
    verify || rc=$?
fi
[ "$rc" -eq 0 ] || die "the final check failed (see the error above)"
say "done in $((SECONDS - START))s"
