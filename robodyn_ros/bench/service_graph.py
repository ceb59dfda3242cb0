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
Processes of one case of ``robodyn bench service``: service, workers and peer (no rclpy here).

A :class:`Graph` starts ``parallel_dynamics`` and ``parallel_dynamics_worker``
as real processes (in a network namespace of a :class:`~.netns.HostPair`
when given one), runs the peer of :mod:`robodyn_ros.nodes.dynamics_roundtrip`
with a plan of steps and collects its JSON results, and stops every process
on exit (SIGINT, then SIGKILL). :func:`peak_rss` reads a process's resident
memory from ``/proc``.
"""

import json
import os
import signal
import subprocess
import sys
import time

from ..ros_env import apply_ros_env_defaults


class Graph:
    """
    Processes of one case: a service, workers, peers; stopped on exit.

    Parameters
    ----------
    robot : str
        Library robot.
    hosts : HostPair, optional
        Namespaces to run in (``side`` of each start); None: this machine's network.

    """

    def __init__(self, robot='puma560', hosts=None):
        self.robot = robot
        self.hosts = hosts
        self.procs = []
        self.tag = f'{os.getpid()}_{int(time.monotonic() * 1e3) % 100000}'
        self.env = apply_ros_env_defaults(dict(os.environ))

    def _popen(self, argv, side, **kwargs):
        env = self.env
        if self.hosts is not None:
            argv, env = self.hosts.command(side, argv), self.hosts.env(env)
        proc = subprocess.Popen(argv, env=env, **kwargs)
        self.procs.append(proc)
        return proc

    def _node(self, module, name, params, side):
        argv = [sys.executable, '-m', f'robodyn_ros.nodes.{module}', '--ros-args', '-r',
                f'__node:={name}', '-p', f'robot:={self.robot}']
        for key, value in params.items():
            argv += ['-p', f'{key}:={value}']
        return self._popen(argv, side, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def service(self, side=0, **params):
        """Start ``parallel_dynamics`` with parameters; return the process."""
        return self._node('parallel_dynamics_node', f'bench_service_{self.tag}', params, side)

    def worker(self, k, side=1):
        """Start worker ``k``; return the process."""
        return self._node('parallel_dynamics_worker_node', f'bench_worker_{self.tag}_{k}', {},
                          side)

    def worker_name(self, k):
        """Fully qualified name of worker ``k`` (str)."""
        return f'/bench_worker_{self.tag}_{k}'

    def peer(self, steps, side=0, on_line=None, timeout=600.0):
        """
        Run the peer with a plan and collect its step results.

        Parameters
        ----------
        steps : list of dict
            Steps (see :mod:`robodyn_ros.nodes.dynamics_roundtrip`).
        side : int
            Namespace (with hosts).
        on_line : callable, optional
            Called with every non-JSON line (``READY``).
        timeout : float
            Longest run [s].

        Returns
        -------
        list of dict
            One result per step.

        """
        plan = json.dumps({'robot': self.robot, 'steps': steps})
        proc = self._popen([sys.executable, '-m', 'robodyn_ros.nodes.dynamics_roundtrip', plan],
                           side, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = []
        deadline = time.monotonic() + timeout
        for line in proc.stdout:
            if line.startswith('{'):
                out.append(json.loads(line))
            elif on_line is not None:
                on_line(line.strip())
            if time.monotonic() > deadline:
                proc.kill()
                break
        proc.wait(timeout=30)
        errors = [r['error'] for r in out if 'error' in r]
        if errors or len(out) != len(steps):
            raise RuntimeError(f'the benchmark peer failed: {errors or out}')
        return out

    def close(self):
        """Stop every process (SIGINT, then SIGKILL after 10 s)."""
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def peak_rss(proc):
    """
    Peak and current resident memory of a process [MB].

    Parameters
    ----------
    proc : subprocess.Popen
        The process.

    Returns
    -------
    dict
        ``peak`` (VmHWM) and ``now`` (VmRSS) [MB].

    """
    out = {}
    with open(f'/proc/{proc.pid}/status') as fh:
        for line in fh:
            key, _, value = line.partition(':')
            if key in ('VmHWM', 'VmRSS'):
                out['peak' if key == 'VmHWM' else 'now'] = int(value.split()[0]) / 1024.0
    return out
