#!/usr/bin/env bash
# Builds rulesrun (release) and installs it: PREFIX/bin/rulesrun, with the default rules (rules/
# and its tests) and personas (examples/personas/) in PREFIX/share/rulesrun/{rules,personas},
# which the binary uses as `@default` (it also holds them built in: a binary copied alone works).
#   scripts/install.sh [--prefix DIR]      (default: ~/.local; put DIR/bin on your PATH)
set -euo pipefail

prefix="$HOME/.local"
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (expected --prefix DIR)" >&2; exit 2 ;;
    esac
done

cd "$(dirname "$0")/.."
swift build -c release --product rulesrun
bin="$(swift build -c release --show-bin-path)"
share="$prefix/share/rulesrun"
mkdir -p "$prefix/bin" "$share"
# The folders are replaced whole, through a temporary copy: never half an old set and half a new.
rm -rf "$share/.new" && mkdir -p "$share/.new"
cp -R rules "$share/.new/rules"
cp -R examples/personas "$share/.new/personas"
rm -rf "$share/rules" "$share/personas"
mv "$share/.new/rules" "$share/.new/personas" "$share/" && rmdir "$share/.new"
install -m 755 "$bin/rulesrun" "$prefix/bin/rulesrun"
echo "installed $prefix/bin/rulesrun and $share/{rules,personas}"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to your PATH" ;; esac
