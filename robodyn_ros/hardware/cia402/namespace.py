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
A network namespace with nothing but loopback, for CAN over UDP multicast.

Tests and the demo run the simulated drives and the host in a
:class:`CanNamespace`: ``ip netns add``, loopback up with multicast and a
route for 224.0.0.0/4 on it, commands run with ``ip netns exec``, and the
namespace deleted afterwards even on failure. Frames in it cannot reach the
machine's real interfaces. Needs root (or CAP_SYS_ADMIN) and iproute2.
"""

import os
import subprocess

from ..errors import HardwareError

#: Prefix of the namespaces' names (``robodyn_can_<pid>[_<k>]``).
PREFIX = 'robodyn_can_'


class NamespaceError(HardwareError):
    """The namespace cannot be created or used."""


def _ip(*args):
    try:
        proc = subprocess.run(['ip', *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NamespaceError(f'ip {" ".join(args)}: {exc}') from None
    if proc.returncode != 0:
        raise NamespaceError(f'ip {" ".join(args)}: {proc.stderr.strip() or proc.returncode} '
                             '(network namespaces need root and iproute2)')
    return proc.stdout


def current():
    """Return the name of the CAN namespace this process runs in ('' if none)."""
    return os.environ.get('ROBODYN_CAN_NAMESPACE', '')


class CanNamespace:
    """
    One isolated network namespace (a context manager: created, then deleted).

    Parameters
    ----------
    suffix : str
        Appended to ``robodyn_can_<pid>`` (several namespaces in one process).

    Attributes
    ----------
    name : str
        The namespace's name.

    """

    def __init__(self, suffix=''):
        self.name = f'{PREFIX}{os.getpid()}{suffix}'
        self.created = False

    def create(self):
        """
        Create the namespace (a stale one of the same name is replaced).

        Raises
        ------
        NamespaceError
            Without root or iproute2.

        """
        if self.name in _ip('netns', 'list'):
            subprocess.run(['ip', 'netns', 'del', self.name], capture_output=True, timeout=10)
        _ip('netns', 'add', self.name)
        self.created = True
        try:
            _ip('-n', self.name, 'link', 'set', 'lo', 'up')
            _ip('-n', self.name, 'link', 'set', 'lo', 'multicast', 'on')
            _ip('-n', self.name, 'route', 'add', '224.0.0.0/4', 'dev', 'lo')
        except NamespaceError:
            self.delete()
            raise
        return self

    def wrap(self, argv):
        """
        Return a command line that runs ``argv`` inside the namespace.

        Parameters
        ----------
        argv : list of str
            The command.

        Returns
        -------
        list of str
            ``ip netns exec NAME argv...``.

        """
        return ['ip', 'netns', 'exec', self.name, *argv]

    def environment(self, env=None):
        """Return ``env`` (default os.environ) with ROBODYN_CAN_NAMESPACE set (dict)."""
        out = dict(os.environ if env is None else env)
        out['ROBODYN_CAN_NAMESPACE'] = self.name
        return out

    def delete(self):
        """Delete the namespace (never raises)."""
        if self.created:
            subprocess.run(['ip', 'netns', 'del', self.name], capture_output=True, timeout=10)
            self.created = False

    def __enter__(self):
        return self.create()

    def __exit__(self, *exc):
        self.delete()

    def __repr__(self):
        return f'CanNamespace({self.name!r})'
