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
Child processes of the demo: start, watch, stop, and leave nothing behind.

Each part runs in its own process group with its output in a log file.
On Linux each child also asks the kernel for SIGTERM when the demo itself
dies (``PR_SET_PDEATHSIG``), so that even a killed demo leaves no orphans.
"""

import ctypes
import json
import os
import signal
import subprocess
import sys
import time

from ..errors import RobodynError

_PR_SET_PDEATHSIG = 1


class PartFailed(RobodynError):
    """A part of the demo did not start, stopped, or misbehaved."""

    def __init__(self, part, reason, log=None):
        self.part = part
        self.reason = reason
        self.log = log
        where = f' (log: {log})' if log else ''
        super().__init__(f'{part}: {reason}{where}')


def _die_with_parent():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the demo's own clean-up must do
        pass


class Part:
    """
    One child process.

    Attributes
    ----------
    name : str
        What it is (used in messages and for its log file).
    argv : list of str
        Command line.
    log : str
        Log file (stdout and stderr).
    process : subprocess.Popen
        The process.
    is_node : bool
        Whether it runs a node of :func:`~robodyn_ros.nodes.runner.run_node`
        (it prints its stacks on SIGUSR1); default: whether ``argv`` runs a
        module of ``robodyn_ros.nodes``.

    """

    def __init__(self, name, argv, log, process, is_node=None):
        self.name = name
        self.argv = argv
        self.log = log
        self.process = process
        if is_node is None:
            is_node = any(a == '-m' and b.startswith('robodyn_ros.nodes.')
                          for a, b in zip(argv, argv[1:]))
        self.is_node = is_node

    @property
    def pid(self):
        """Return the process id."""
        return self.process.pid

    def running(self):
        """Tell whether the process is still alive."""
        return self.process.poll() is None

    def signal(self, sig, group=False):
        """
        Send a signal to the process, or to its whole process group; one already gone is skipped.

        Parameters
        ----------
        sig : int
            The signal.
        group : bool
            Whether every process of its group gets it (what it started, too).

        """
        try:
            if group:
                os.killpg(self.pid, sig)
            else:
                self.process.send_signal(sig)
        except (ProcessLookupError, PermissionError):
            pass

    def cpu_seconds(self):
        """Return the CPU time used so far (user + system) [s], or None if unknown."""
        try:
            with open(f'/proc/{self.pid}/stat', encoding='ascii') as fh:
                fields = fh.read().rsplit(')', 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
        except (OSError, ValueError, IndexError):
            return None

    def log_tail(self, lines=5):
        """Return the last lines of the log (empty if unreadable)."""
        try:
            with open(self.log, encoding='utf-8', errors='replace') as fh:
                text = fh.read().strip().splitlines()
        except OSError:
            return ''
        return '\n'.join(text[-lines:])

    def json_line(self, key):
        """Return the first JSON object in the log that has ``key``, or None."""
        try:
            with open(self.log, encoding='utf-8', errors='replace') as fh:
                for line in fh:
                    line = line.strip()
                    if line.startswith('{'):
                        try:
                            data = json.loads(line)
                        except ValueError:
                            continue
                        if isinstance(data, dict) and key in data:
                            return data
        except OSError:
            pass
        return None


class ProcessGroup:
    """
    The demo's child processes.

    Parameters
    ----------
    log_dir : str
        Folder for the log files.
    env : dict
        Environment of the children.

    """

    def __init__(self, log_dir, env):
        self.log_dir = log_dir
        self.env = env
        self.parts = []

    def start(self, name, argv, log_name=None, is_node=None):
        """
        Start a part.

        Parameters
        ----------
        name : str
            Its name (log file ``<name>.log``).
        argv : list of str
            Command line.
        log_name : str, optional
            Log file name instead of ``<name>.log`` (e.g. for a restart).
        is_node : bool, optional
            Whether it runs a node of ``run_node`` (see :class:`Part`).

        Returns
        -------
        Part
            The started part.

        Raises
        ------
        PartFailed
            When the program cannot be executed.

        """
        log = os.path.join(self.log_dir, log_name or f'{name}.log')
        with open(log, 'wb') as fh:
            try:
                proc = subprocess.Popen(
                    argv, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    env=self.env, start_new_session=True,
                    preexec_fn=_die_with_parent if sys.platform.startswith('linux') else None)
            except OSError as exc:
                raise PartFailed(name, f'cannot start {argv[0]}: {exc}', log) from None
        part = Part(name, list(argv), log, proc, is_node)
        self.parts.append(part)
        return part

    def find(self, name):
        """
        Return the running part called ``name``.

        Parameters
        ----------
        name : str
            Part name.

        Returns
        -------
        Part
            The part.

        Raises
        ------
        KeyError
            When there is none.

        """
        for part in self.parts:
            if part.name == name:
                return part
        raise KeyError(name)

    def kill(self, name, sig=signal.SIGKILL):
        """
        Kill a part on purpose (it is then no longer watched).

        Parameters
        ----------
        name : str
            Part name.
        sig : int
            Signal (default SIGKILL: no clean-up in the part).

        Returns
        -------
        Part
            The killed part (its ``argv`` restarts it).

        """
        part = self.find(name)
        self.parts.remove(part)
        part.signal(sig)
        part.process.wait(10.0)
        return part

    def dump_stacks(self, name):
        """
        Ask a part to print every thread's stack into its log (SIGUSR1).

        Parameters
        ----------
        name : str
            Part name (a node started by :func:`run_node`).

        """
        try:
            part = self.find(name)
        except KeyError:
            return
        part.signal(signal.SIGUSR1)
        time.sleep(0.5)

    def check(self):
        """
        Raise if any part has exited.

        Raises
        ------
        PartFailed
            Naming the first part found dead, its exit code and last log line.

        """
        for part in self.parts:
            code = part.process.poll()
            if code is not None:
                tail = part.log_tail(3).replace('\n', ' | ')
                reason = f'exited with code {code}' + (f': {tail}' if tail else '')
                raise PartFailed(part.name, reason, part.log)

    def wait_until(self, predicate, timeout, what, part=None, period=0.05):
        """
        Wait for a condition while watching the parts.

        Parameters
        ----------
        predicate : callable
            Returns true when done.
        timeout : float
            Longest wait [s].
        what : str
            Description for the error message.
        part : str, optional
            Part to blame on a timeout.
        period : float
            Polling period [s].

        Raises
        ------
        PartFailed
            When a part exits or the timeout passes.

        """
        deadline = time.monotonic() + timeout
        while True:
            self.check()
            if predicate():
                return
            if time.monotonic() > deadline:
                log = next((p.log for p in self.parts if p.name == part), None)
                raise PartFailed(part or 'demo', f'timed out after {timeout:g} s waiting for '
                                 f'{what}', log)
            time.sleep(period)

    def cpu_seconds(self, include_self=None):
        """
        Return ``{name: CPU time [s]}`` of the running parts (Linux).

        Parameters
        ----------
        include_self : str, optional
            Also give this process's own CPU time under this name.

        """
        out = {include_self: sum(os.times()[:2])} if include_self else {}
        for part in self.parts:
            value = part.cpu_seconds()
            if value is not None:
                out[part.name] = value
        return out

    def pids(self):
        """Return ``{name: pid}`` of every part."""
        return {p.name: p.pid for p in self.parts}

    def stop(self, timeout=5.0):
        """
        Stop every part: SIGINT, then SIGTERM, then SIGKILL.

        SIGINT goes to all the nodes at once (each winds down on its own; a
        hardware interface switches its outputs off), then, once they are
        gone or their grace time is over, to the other parts one after
        another, newest first, so that a simulated board or drive outlives
        every host that talks to it. A node still running after the
        SIGINT's grace time is asked for its stacks (SIGUSR1) before the
        SIGTERM: its log then shows where its exit hung.

        Parameters
        ----------
        timeout : float
            Grace time of each step [s].

        Returns
        -------
        dict
            ``{name: exit code}`` (negative: killed by that signal).

        """
        nodes = [p for p in reversed(self.parts) if p.is_node and p.running()]
        for part in nodes:
            part.signal(signal.SIGINT, group=True)
        self._wait(nodes, timeout)
        hung = [p for p in nodes if p.running()]
        for part in hung:
            part.signal(signal.SIGUSR1)
        if hung:
            time.sleep(0.5)
        for part in reversed(self.parts):
            if not part.is_node and part.running():
                part.signal(signal.SIGINT, group=True)
                self._wait([part], timeout)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            alive = [p for p in reversed(self.parts) if p.running()]
            if not alive:
                break
            for part in alive:
                part.signal(sig, group=True)
            self._wait(alive, timeout)
        for part in self.parts:  # anything the parts themselves started
            part.signal(signal.SIGKILL, group=True)
        return {p.name: p.process.poll() for p in self.parts}

    @staticmethod
    def _wait(parts, timeout):
        deadline = time.monotonic() + timeout
        for part in parts:
            try:
                part.process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
