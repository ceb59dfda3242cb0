# Copyright 2026 The robodyn_ros Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Run a ``robodyn`` command inside a CAN network namespace of its own.

``robodyn demo --hardware cia402`` and ``robodyn faults --hardware cia402``
carry CAN frames as UDP multicast between processes; that must never reach
the machine's real interfaces. :func:`rerun_in_namespace` creates a
:class:`~robodyn_ros.hardware.cia402.namespace.CanNamespace` (loopback
only), runs the same command again inside it (its children inherit it:
the drives, the nodes and the demo's own probe share one loopback, DDS
included) and deletes the namespace afterwards, also when the command
fails or is interrupted.
"""

import os
import signal
import subprocess
import sys

from ..hardware.cia402.namespace import CanNamespace, current


def rerun_in_namespace(argv):
    """
    Run ``robodyn argv...`` inside a new CAN namespace and wait for it.

    Parameters
    ----------
    argv : list of str
        The command's arguments (after ``robodyn``).

    Returns
    -------
    int
        Its exit code.

    Raises
    ------
    NamespaceError
        When the namespace cannot be made (needs root and iproute2).

    """
    ns = CanNamespace()
    ns.create()
    proc = None
    previous = {}

    def forward(signum, frame):
        if proc is not None and proc.poll() is None:
            proc.send_signal(signum)

    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, forward)
        print(f'robodyn: CAN bus in network namespace {ns.name} (loopback only)', flush=True)
        proc = subprocess.Popen(ns.wrap([sys.executable, '-m', 'robodyn_ros.cli.main', *argv]),
                                env=ns.environment())
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                continue
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        ns.delete()


def needs_namespace(hardware):
    """Tell whether a run on ``hardware`` must first move into a namespace of its own (bool)."""
    return hardware == 'cia402' and not current() and os.environ.get(
        'ROBODYN_CAN_NO_NAMESPACE') != '1'
