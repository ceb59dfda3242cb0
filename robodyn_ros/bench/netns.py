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
Two hosts on one machine: two network namespaces joined by a veth pair (no rclpy).

:class:`HostPair` creates namespaces ``<prefix>_a`` and ``<prefix>_b``, each
with its loopback and one end of a veth pair (``10.<x>.<y>.1/24`` and
``.2``), and a multicast route on that link only; nothing of this machine's
own interfaces is touched, and DDS in the namespaces sees nothing but the
link. Processes started with :meth:`HostPair.command` run inside a
namespace with :meth:`HostPair.env`: DDS discovery on the subnet
(``ROS_AUTOMATIC_DISCOVERY_RANGE=SUBNET``) and UDP only
(``FASTDDS_BUILTIN_TRANSPORTS=UDPv4``: two namespaces share this machine's
``/dev/shm``, and Fast DDS would otherwise take its shared-memory transport
past the link). :meth:`HostPair.cut` takes the link down, :meth:`restore`
brings it back. Needs root (``CAP_NET_ADMIN``) and ``ip`` (iproute2).
"""

import os
import shutil
import subprocess

#: Environment of processes inside the namespaces (on top of the caller's).
HOST_ENV = {'ROS_AUTOMATIC_DISCOVERY_RANGE': 'SUBNET', 'FASTDDS_BUILTIN_TRANSPORTS': 'UDPv4'}


def _ip(*args, check=True):
    return subprocess.run(['ip', *args], capture_output=True, text=True, check=check,
                          timeout=20)


def unavailable():
    """
    Tell why namespaces cannot be made here.

    Returns
    -------
    str
        The reason, or '' when they can.

    """
    if shutil.which('ip') is None:
        return 'the ip command (iproute2) is not installed'
    if os.geteuid() != 0:
        return 'creating network namespaces needs root (CAP_NET_ADMIN)'
    name = f'rdprobe{os.getpid()}'
    res = _ip('netns', 'add', name, check=False)
    if res.returncode != 0:
        return f'ip netns add failed: {res.stderr.strip()}'
    _ip('netns', 'del', name, check=False)
    return ''


class HostPair:
    """
    Two network namespaces joined by a veth pair; a context manager.

    Parameters
    ----------
    prefix : str, optional
        Base of the namespace names (default ``rd<pid>``).
    rate_mbit : float, optional
        Pace the link at this rate (a token-bucket queue of 32 MB on both
        ends, nothing dropped), so that large messages take a while to cross.

    Attributes
    ----------
    names : tuple of str
        The namespaces (``a``, ``b``).
    addresses : tuple of str
        Their addresses on the link.

    """

    def __init__(self, prefix=None, rate_mbit=None):
        pid = os.getpid()
        self.rate_mbit = rate_mbit
        self.prefix = prefix or f'rd{pid}'
        self.names = (f'{self.prefix}_a', f'{self.prefix}_b')
        self._links = (f'rdv{pid % 100000}a', f'rdv{pid % 100000}b')
        net = f'10.{100 + pid % 100}.{pid // 100 % 250}'
        self.addresses = (f'{net}.1', f'{net}.2')
        self._made = []

    def __enter__(self):
        try:
            for ns in self.names:
                _ip('netns', 'add', ns)
                self._made.append(ns)
            a, b = self._links
            _ip('link', 'add', a, 'type', 'veth', 'peer', 'name', b)
            for ns, link, addr in zip(self.names, self._links, self.addresses):
                _ip('link', 'set', link, 'netns', ns)
                _ip('-n', ns, 'addr', 'add', f'{addr}/24', 'dev', link)
                _ip('-n', ns, 'link', 'set', 'lo', 'up')
                _ip('-n', ns, 'link', 'set', link, 'up', 'multicast', 'on')
                _ip('-n', ns, 'route', 'add', '224.0.0.0/4', 'dev', link)
                if rate_mbit := self.rate_mbit:
                    subprocess.run(['ip', 'netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', link,
                                    'root', 'tbf', 'rate', f'{rate_mbit}mbit', 'burst', '64kb',
                                    'limit', '32mb'], check=True, capture_output=True,
                                   timeout=20)
        except Exception:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        for ns in self._made:
            _ip('netns', 'del', ns, check=False)
        self._made = []

    def env(self, base=None):
        """
        Environment for a process inside a namespace.

        Parameters
        ----------
        base : dict, optional
            Starting environment (default ``os.environ``).

        Returns
        -------
        dict
            ``base`` with :data:`HOST_ENV`.

        """
        env = dict(os.environ if base is None else base)
        env.update(HOST_ENV)
        return env

    def command(self, side, argv):
        """
        Prefix a command so that it runs inside namespace ``side``.

        Parameters
        ----------
        side : int
            0 (``a``) or 1 (``b``).
        argv : list of str
            The command.

        Returns
        -------
        list of str
            ``ip netns exec <ns> argv...``.

        """
        return ['ip', 'netns', 'exec', self.names[side], *argv]

    def link_bytes(self, side=0):
        """
        Bytes sent and received on the link in a namespace.

        Parameters
        ----------
        side : int
            0 or 1.

        Returns
        -------
        tuple of int
            ``(tx_bytes, rx_bytes)``.

        """
        out = []
        for key in ('tx_bytes', 'rx_bytes'):
            res = subprocess.run(['ip', 'netns', 'exec', self.names[side], 'cat',
                                  f'/sys/class/net/{self._links[side]}/statistics/{key}'],
                                 capture_output=True, text=True, check=True, timeout=10)
            out.append(int(res.stdout))
        return tuple(out)

    def cut(self):
        """Take the link down (both ends)."""
        for ns, link in zip(self.names, self._links):
            _ip('-n', ns, 'link', 'set', link, 'down')

    def restore(self):
        """Bring the link back up."""
        for ns, link in zip(self.names, self._links):
            _ip('-n', ns, 'link', 'set', link, 'up')
            _ip('-n', ns, 'route', 'replace', '224.0.0.0/4', 'dev', link)
