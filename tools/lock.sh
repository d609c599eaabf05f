#!/usr/bin/env bash
# Write the two pinned lists with their hashes, from pyproject.toml's dependencies and extras:
#   constraints.txt         every package of every extra (the tests' and a developer's install)
#   constraints-server.txt  what a server runs: the dependencies and the cluster, fast, metrics and speed extras
# Both are installed with --require-hashes (the README's commands, .ci/run, the Dockerfile), the project itself after
# them with --no-deps. By default the versions stay as constraints.txt has them (a new dependency gets its newest);
# --upgrade moves every package to its newest version (then run the tests). Needs pip-tools, installed here into a
# throwaway venv: it is a tool for this script, not a dependency of the project.
# It resolves under the oldest Python the project runs on, Debian bookworm's 3.11.2 (/usr/bin/python3; LOCK_PYTHON
# names another): a package that only older 3.11 releases need is then pinned too (redis needs async-timeout below
# 3.11.3), where a newer interpreter would leave it out and the install on Debian's Python would fail its hashes.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d /tmp/hearts-lock.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
LOCK_PYTHON=${LOCK_PYTHON:-/usr/bin/python3}
"$LOCK_PYTHON" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' || {
  echo "tools/lock.sh: $LOCK_PYTHON is not a Python 3.11 (set LOCK_PYTHON)" >&2; exit 2; }
"$LOCK_PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q pip-tools
KEEP=(-c "$WORK/pins.txt")
if [[ ${1:-} == --upgrade ]]; then KEEP=(--upgrade); fi
grep -E '^[A-Za-z0-9_.-]+==' constraints.txt | sed 's/ .*//' > "$WORK/pins.txt" || true
compile() {  # compile OUT EXTRA-FLAGS...
  local out=$1; shift
  "$WORK/venv/bin/pip-compile" -q --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
    --no-emit-find-links --no-header --no-annotate "${KEEP[@]}" "$@" -o "$WORK/out.txt" pyproject.toml
  { printf '# %s\n' "$HEADER"; printf '# Made by tools/lock.sh from pyproject.toml; install with: pip install --require-hashes -r %s\n' "$out"
    printf '# then the project with --no-deps. Refresh: bash tools/lock.sh (--upgrade for newer versions), then run the tests.\n'
    cat "$WORK/out.txt"; } > "$out"
}
HEADER="Every package the tests and a developer install, pinned with its hashes (all extras)."
compile constraints.txt --all-extras
grep -E '^[A-Za-z0-9_.-]+==' constraints.txt | sed 's/ .*//' > "$WORK/pins.txt"
KEEP=(-c "$WORK/pins.txt")  # the server's list: the same versions as the whole one
HEADER="What a server runs (the dependencies and the cluster, fast, metrics and speed extras), pinned with its hashes."
compile constraints-server.txt --extra cluster --extra fast --extra metrics --extra speed
echo "wrote constraints.txt ($(grep -cE '^[A-Za-z0-9_.-]+==' constraints.txt) packages) and constraints-server.txt ($(grep -cE '^[A-Za-z0-9_.-]+==' constraints-server.txt))"
