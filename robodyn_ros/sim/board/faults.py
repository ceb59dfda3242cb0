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
Fault injection for the simulated board, and its run-time control channel.

Faults (names as on the command line and the control channel):

==============  =======================================  ==========================
fault           parameters                               what the board does
==============  =======================================  ==========================
drop            rate in [0, 1], direction rx|tx|both     drops received byte batches
                                                         (rx) or sent frames (tx)
corrupt_crc     rate in [0, 1], direction rx|tx|both     flips a CRC bit of received
                                                         or sent frames
delay           seconds >= 0                             holds every sent frame back
                                                         (in board time)
disconnect      (none)                                   closes its end of the link
stuck_encoder   axis (index, or -1 for all)              freezes the encoder count
over_current    axis (index, or -1), amps                adds ``amps`` to the
                                                         measured current
==============  =======================================  ==========================

The control channel is a UDP socket on the loopback interface taking one
JSON object per datagram and answering with one JSON object::

    {"cmd": "inject", "fault": "drop", "direction": "rx", "rate": 1.0}
    {"cmd": "clear", "fault": "drop"}          (or "all")
    {"cmd": "status"}
    {"cmd": "quit"}
"""

from dataclasses import dataclass, field
import json
import math
import socket
import time

FAULT_PARAMS = {
    'drop': {'rate': 1.0, 'direction': 'both'},
    'corrupt_crc': {'rate': 1.0, 'direction': 'both'},
    'delay': {'seconds': 0.1},
    'disconnect': {},
    'stuck_encoder': {'axis': -1},
    'over_current': {'axis': 0, 'amps': None},
}
DIRECTIONS = ('rx', 'tx', 'both')


class FaultSpecError(ValueError):
    """An injected fault is unknown or has bad parameters."""


def _check_params(name, params, table=None):
    table = FAULT_PARAMS if table is None else table
    if name not in table:
        raise FaultSpecError(f'unknown fault {name!r} (known: {", ".join(table)})')
    allowed = table[name]
    unknown = set(params) - set(allowed)
    if unknown:
        raise FaultSpecError(f'fault {name}: unknown parameters {", ".join(sorted(unknown))} '
                             f'(allowed: {", ".join(allowed) or "none"})')
    out = dict(allowed)
    out.update(params)
    try:
        if 'rate' in out:
            out['rate'] = float(out['rate'])
            if not 0.0 <= out['rate'] <= 1.0:
                raise FaultSpecError(f'fault {name}: rate must be in [0, 1]')
        if 'direction' in out and out['direction'] not in DIRECTIONS:
            raise FaultSpecError(f'fault {name}: direction must be rx, tx or both')
        if 'seconds' in out:
            out['seconds'] = float(out['seconds'])
            if not 0.0 <= out['seconds'] <= 60.0:
                raise FaultSpecError(f'fault {name}: seconds must be in [0, 60]')
        if 'axis' in out:
            out['axis'] = int(out['axis'])
            if out['axis'] < -1:
                raise FaultSpecError(f'fault {name}: axis must be >= -1')
        if out.get('amps') is not None:
            out['amps'] = float(out['amps'])
    except (TypeError, ValueError) as exc:
        if isinstance(exc, FaultSpecError):
            raise
        raise FaultSpecError(f'fault {name}: bad parameter value ({exc})') from None
    return out


def parse_fault_spec(text, table=None):
    """
    Parse a command-line fault: ``NAME`` or ``NAME:key=value[,key=value]``.

    Parameters
    ----------
    text : str
        E.g. ``'drop:direction=rx,rate=0.5'``.
    table : dict, optional
        Fault names to their default parameters (default the board's,
        :data:`FAULT_PARAMS`).

    Returns
    -------
    tuple
        ``(name, params)`` with checked parameters.

    Raises
    ------
    FaultSpecError
        Unknown fault or bad parameters.

    """
    name, _, rest = text.partition(':')
    params = {}
    for item in filter(None, rest.split(',')):
        key, sep, value = item.partition('=')
        if not sep:
            raise FaultSpecError(f'fault {name}: expected key=value, got {item!r}')
        params[key.strip()] = value.strip()
    return name.strip(), _check_params(name.strip(), params, table)


@dataclass
class FaultInjector:
    """
    The faults active on a simulated board.

    Attributes
    ----------
    rng : numpy.random.Generator
        Random source for the drop and corruption rates.
    active : dict
        Fault name to its parameters.
    log : list
        Events ``{'event': 'inject'|'clear', 'fault': name, 'board_time_us': t}``.

    """

    rng: object
    active: dict = field(default_factory=dict)
    log: list = field(default_factory=list)

    #: Fault names and their default parameters.
    table = FAULT_PARAMS

    def inject(self, name, params, board_time_us=0):
        """
        Activate a fault (replacing the same fault's parameters).

        Parameters
        ----------
        name : str
            Fault name.
        params : dict
            Its parameters (checked).
        board_time_us : int
            Board time, for the log [us].

        Returns
        -------
        dict
            The checked parameters.

        """
        params = _check_params(name, params, self.table)
        self.active[name] = params
        self.log.append({'event': 'inject', 'fault': name, 'board_time_us': board_time_us})
        return params

    def clear(self, name, board_time_us=0):
        """
        Deactivate one fault, or every fault with ``'all'``.

        Parameters
        ----------
        name : str
            Fault name or ``'all'``.
        board_time_us : int
            Board time, for the log [us].

        """
        names = list(self.active) if name == 'all' else [name]
        if name != 'all' and name not in self.table:
            raise FaultSpecError(f'unknown fault {name!r}')
        for n in names:
            if self.active.pop(n, None) is not None:
                self.log.append({'event': 'clear', 'fault': n, 'board_time_us': board_time_us})

    def _hit(self, name, direction):
        p = self.active.get(name)
        if p is None or p['direction'] not in (direction, 'both'):
            return False
        return p['rate'] >= 1.0 or self.rng.random() < p['rate']

    def drop(self, direction):
        """Whether to drop this rx batch or tx frame (bool)."""
        return self._hit('drop', direction)

    def corrupt(self, data, direction):
        """
        Return ``data``, with one CRC bit flipped if the corruption fault hits.

        Parameters
        ----------
        data : bytes
            One frame.
        direction : str
            ``'rx'`` or ``'tx'``.

        Returns
        -------
        bytes
            The possibly corrupted bytes.

        """
        if not data or not self._hit('corrupt_crc', direction):
            return data
        out = bytearray(data)
        out[-1] ^= 0x01 << int(self.rng.integers(8))
        return bytes(out)

    @property
    def delay(self):
        """Delay of every sent frame [s]."""
        p = self.active.get('delay')
        return p['seconds'] if p else 0.0

    @property
    def disconnected(self):
        """Whether the link is down (bool)."""
        return 'disconnect' in self.active

    def stuck(self, axis):
        """Whether the encoder of ``axis`` is frozen (bool)."""
        p = self.active.get('stuck_encoder')
        return p is not None and p['axis'] in (-1, axis)

    def current_offset(self, axis, default):
        """
        Extra measured current of ``axis`` from the over-current fault [A].

        Parameters
        ----------
        axis : int
            Axis index.
        default : float
            Amps to add when the fault gives none.

        Returns
        -------
        float
            Offset [A] (0 without the fault).

        """
        p = self.active.get('over_current')
        if p is None or p['axis'] not in (-1, axis):
            return 0.0
        return default if p['amps'] is None else p['amps']


#: Largest control request [bytes].
MAX_REQUEST = 8192
#: Deepest nesting of a control request (objects and arrays).
MAX_DEPTH = 8


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f'number {text} is out of range')
    return value


def _no_constant(name):
    raise ValueError(f'{name} is not a number a request may carry')


def parse_request(data):
    """
    Parse one control request, bounded in size, nesting and numbers.

    Parameters
    ----------
    data : bytes
        The datagram.

    Returns
    -------
    dict
        The request.

    Raises
    ------
    ValueError
        Too large, too deeply nested, not UTF-8 JSON, not an object, or a
        number that is not finite.

    """
    if len(data) > MAX_REQUEST:
        raise ValueError(f'request of {len(data)} bytes exceeds {MAX_REQUEST}')
    text = data.decode('utf-8')
    depth = deepest = 0
    in_string = False
    i = 0
    while i < len(text):     # count nesting before the recursive parser sees it
        ch = text[i]
        if in_string:
            if ch == '\\':
                i += 1       # skip the escaped character
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in '[{':
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise ValueError(f'request nested deeper than {MAX_DEPTH} levels')
        elif ch in ']}':
            depth -= 1
        i += 1
    request = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    if not isinstance(request, dict):
        raise ValueError('request must be a JSON object')
    return request


class ControlChannel:
    """
    JSON-over-UDP control socket of the simulated board (loopback only).

    Parameters
    ----------
    port : int
        Port to bind on 127.0.0.1 (0: any free port; see :attr:`port`).
    handler : callable
        ``handler(request: dict) -> dict`` producing the reply.

    """

    def __init__(self, port, handler):
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self._sock.bind(('127.0.0.1', int(port)))
        except OSError as exc:
            self._sock.close()
            from .endpoints import PortInUse
            raise PortInUse(f'control port {port} on 127.0.0.1: {exc.strerror}') from None
        self._sock.setblocking(False)
        self.port = self._sock.getsockname()[1]
        self._handler = handler

    def fileno(self):
        """File descriptor to wait on (int)."""
        return self._sock.fileno()

    def poll(self):
        """Answer every waiting request; any error is answered, none is raised."""
        while True:
            try:
                data, peer = self._sock.recvfrom(65536)
            except (BlockingIOError, ConnectionRefusedError):
                return
            try:
                reply = self._handler(parse_request(data))
            except Exception as exc:  # noqa: B902 - any input gets an answer, never a crash
                reply = {'ok': False, 'error': f'{type(exc).__name__}: {exc}'[:500]}
            try:
                text = json.dumps(reply, allow_nan=False)
            except (TypeError, ValueError) as exc:
                text = json.dumps({'ok': False, 'error': f'unanswerable reply: {exc}'})
            try:
                self._sock.sendto(text.encode('utf-8'), peer)
            except OSError:
                pass

    def close(self):
        """Close the socket."""
        self._sock.close()


def control_request(port, request, timeout=2.0):
    """
    Send one request to a simulated board's control channel and return the reply.

    Parameters
    ----------
    port : int
        Control port on 127.0.0.1.
    request : dict
        The request, e.g. ``{'cmd': 'status'}``.
    timeout : float
        How long to wait for the answer [s].

    Returns
    -------
    dict
        The reply.

    Raises
    ------
    TimeoutError
        If the board does not answer.

    """
    board = ('127.0.0.1', int(port))
    deadline = time.monotonic() + timeout
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.sendto(json.dumps(request).encode('utf-8'), board)
        # Only the board's answer counts: this socket's ephemeral port may be one that
        # DDS peers still send to (their unicast ports lie in the ephemeral range).
        left = timeout
        while left > 0.0:
            sock.settimeout(left)
            try:
                data, sender = sock.recvfrom(1 << 20)
            except socket.timeout:
                break
            if sender == board:
                return json.loads(data.decode('utf-8'))
            left = deadline - time.monotonic()
    raise TimeoutError(f'simulated board control port {port} did not answer')
