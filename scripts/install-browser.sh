#!/usr/bin/env bash
# Provision the real browser the web page's tests drive (tests/frontends/test_web_page.py):
# Chromium and the ChromeDriver of the same version, from the system's Debian
# packages (`chromium`, `chromium-driver`).
#
#   usage: bash scripts/install-browser.sh
#
# If `chromium` and `chromedriver` are already on PATH it does nothing.
# Otherwise it runs `apt-get update && apt-get install -y chromium chromium-driver`
# (as root, or through sudo when it is there), without the recommended desktop
# packages but with one font (fonts-dejavu-core) so pages and screenshots show text. It adds no apt source: on
# Debian 12 the packages come from bookworm(-security) and match each other.
# Browser downloads from the internet (Playwright's, Selenium Manager's) are
# not used: they fail on machines without general internet access.
# Prints one line saying what it did.
set -Eeuo pipefail

say() { printf 'install-browser: %s\n' "$*"; }
die() { printf 'install-browser: ERROR: %s\n' "$*" >&2; exit 1; }

version() { "$1" --version 2>/dev/null | head -n 1; }

if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    say "already installed: $(version chromium), $(version chromedriver | cut -d' ' -f1-2)"
    exit 0
fi

command -v apt-get >/dev/null || die "no chromium/chromedriver on PATH and no apt-get: install Chromium and its ChromeDriver yourself"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null; then
    SUDO=(sudo)
else
    die "installing chromium and chromium-driver needs root (or sudo)"
fi

PACKAGES=(chromium chromium-driver fonts-dejavu-core)
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
apt() {  # quiet on success; on failure, the end of apt's output and one line
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >"$LOG" 2>&1 \
        || { tail -n 20 "$LOG" >&2; die "apt-get $* failed"; }
}
apt update -qq
apt install -y -qq --no-install-recommends "${PACKAGES[@]}"
command -v chromium >/dev/null && command -v chromedriver >/dev/null \
    || die "chromium and chromedriver are still not on PATH after apt-get install"
say "installed ${PACKAGES[*]} with apt-get: $(version chromium), $(version chromedriver | cut -d' ' -f1-2)"
