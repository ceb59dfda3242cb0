#!/usr/bin/env bash
# Copyright 2026 The robodyn_ros Authors
# SPDX-License-Identifier: Apache-2.0
#
# Create or reuse .venv/ in the repository root and install robodyn_ros with
# its pinned dependencies, then compile every cache once (robodyn warm: the C
# dynamics kernels, the numba planner core, the control laws' compiled steps),
# so that no later command waits for a one-time compile. Idempotent: a second
# run only checks a stamp.
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
pip_install() {
  # Some machines list local index folders that do not exist; pip warns about each one.
  "$venv/bin/python" -m pip install --disable-pip-version-check -q "$@" \
    2> >(grep -v 'is ignored: it is neither a file nor a directory' >&2)
}
pip_install --upgrade pip
pip_install -r "$root/requirements.txt"
pip_install --no-deps -e "$root"
echo "robodyn setup: compiling the caches once (robodyn warm, about half a minute)"
if ! ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}" \
     "$venv/bin/robodyn" warm; then
  echo "robodyn setup: robodyn warm failed; the caches will fill on first use" >&2
fi
echo "$stamp" > "$stamp_file"
echo "robodyn setup: done"
