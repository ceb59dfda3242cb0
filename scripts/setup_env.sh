#!/usr/bin/env bash
# Copyright 2026 The robodyn_ros Authors
# SPDX-License-Identifier: Apache-2.0
#
# Create or reuse .venv/ in the repository root and install robodyn_ros with
# its pinned dependencies. Idempotent: a second run only checks a stamp.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"

pick_python() {
  if [ -n "${PYTHON:-}" ]; then echo "$PYTHON"; return; fi
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then echo "$candidate"; return; fi
  done
  echo "robodyn setup: no python3 found on PATH" >&2
  exit 1
}

if [ ! -x "$venv/bin/python" ]; then
  py="$(pick_python)"
  echo "robodyn setup: creating $venv with $py"
  "$py" -m venv "$venv"
fi

stamp_file="$venv/.robodyn_stamp"
stamp="$(cat "$root/requirements.txt" "$root/setup.py" "$root/setup.cfg" "$root/package.xml" \
  | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] \
   && "$venv/bin/python" -c 'import robodyn_ros, rclpy, pinocchio' >/dev/null 2>&1; then
  echo "robodyn setup: .venv is up to date"
  exit 0
fi

echo "robodyn setup: installing pinned dependencies into .venv (first run takes about 2 minutes)"
"$venv/bin/python" -m pip install --disable-pip-version-check -q --upgrade pip
"$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$root/requirements.txt"
"$venv/bin/python" -m pip install --disable-pip-version-check -q --no-deps -e "$root"
echo "$stamp" > "$stamp_file"
echo "robodyn setup: done"
