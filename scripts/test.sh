#!/usr/bin/env bash
# Copyright 2026 The robodyn_ros Authors
# SPDX-License-Identifier: Apache-2.0
#
# Set up .venv/ (if needed) and run the whole test suite.
# Extra arguments go to pytest, e.g. ./scripts/test.sh -k dynamics
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup_env.sh"
cd "$root"
# Keep DDS on loopback unless the caller chose otherwise; each test run gets
# its own ROS_DOMAIN_ID (see test/conftest.py).
export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
set +e
# The slowest tests are listed at the end (the suite's budget is 15 minutes here).
"$root/.venv/bin/python" -m pytest --durations=25 "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "robodyn test: no tests were collected; treating that as a failure" >&2
fi
exit "$rc"
