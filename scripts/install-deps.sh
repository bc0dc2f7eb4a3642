#!/usr/bin/env bash
# Installs what rulesrun needs beyond Swift, only when it is missing:
#   - Lua 5.4's C library and headers (pkg-config lua5.4; never Debian's C++ build lua5.4-c++),
#   - SQLite's headers (GRDB builds against the system SQLite),
#   - libcurl and the CA certificates, which Foundation's URLSession runs on in Linux (FoundationNetworking
#     loads libcurl.so.4; BundleFetcher fetches bundles over http and https through it),
#   - with --luacheck, luacheck (lua-check), which the tests run on the rule files (scripts/test),
#     GNU parallel, through which a test runs a cohort's shards (docs/scale-out.md), and Chromium,
#     in which the tests render the HTML pages headless (docs/report.md).
set -euo pipefail

want_luacheck=false
if [ "${1:-}" = "--luacheck" ]; then want_luacheck=true; fi

have_lua() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists lua5.4; }
have_sqlite() { [ -f /usr/include/sqlite3.h ] || { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists sqlite3; }; }
have_curl() {
    [ "$(uname -s)" != Linux ] || { PATH="$PATH:/sbin:/usr/sbin" ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 '; }
}
have_luacheck() { ! $want_luacheck || command -v luacheck >/dev/null 2>&1; }
have_parallel() { ! $want_luacheck || command -v parallel >/dev/null 2>&1; }
have_chromium() {
    ! $want_luacheck || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
        || command -v google-chrome >/dev/null 2>&1
}

if ! command -v swift >/dev/null 2>&1; then
    echo "rulesrun needs Swift 6.1 or later on PATH (https://www.swift.org/install/)." >&2
    exit 1
fi

if have_lua && have_sqlite && have_curl && have_luacheck && have_parallel && have_chromium; then exit 0; fi

if command -v apt-get >/dev/null 2>&1; then
    packages="liblua5.4-dev libsqlite3-dev pkg-config libcurl4-openssl-dev ca-certificates"
    if $want_luacheck; then packages="$packages lua-check parallel chromium fonts-dejavu-core"; fi
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
            echo "Installing $packages needs root: run 'apt-get install -y $packages' as root." >&2
            exit 1
        fi
    fi
    echo "Installing $packages with apt-get..." >&2
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086 # the packages are words
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $packages >/dev/null
elif command -v brew >/dev/null 2>&1; then
    echo "Installing lua and pkg-config with Homebrew..." >&2
    brew install lua pkg-config
    if $want_luacheck; then
        brew install luacheck parallel
        have_chromium || echo "No chromium on PATH: the tests that render the HTML pages in it are skipped." >&2
    fi
else
    echo "Lua 5.4 or SQLite's headers were not found and this system has neither apt-get nor Homebrew." >&2
    echo "Install Lua 5.4's C library and headers ('pkg-config --exists lua5.4' must succeed) and SQLite's headers, then retry." >&2
    exit 1
fi

if ! have_lua; then
    echo "Lua 5.4 was installed but 'pkg-config --exists lua5.4' still fails; check PKG_CONFIG_PATH." >&2
    exit 1
fi
if ! have_curl; then
    echo "libcurl.so.4 (which FoundationNetworking loads) was not found; install libcurl (Debian: libcurl4-openssl-dev)." >&2
    exit 1
fi
