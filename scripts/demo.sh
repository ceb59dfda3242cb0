#!/usr/bin/env bash
# Copyright 2026 The robodyn_ros Authors
# SPDX-License-Identifier: Apache-2.0
#
# Set up .venv/ (if needed) and run the main job.
# Extra arguments go to the main job.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup_env.sh"
cd "$root"
export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
exec "$root/.venv/bin/robodyn" demo "$@"
