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
The simulated board: firmware, plant and fault injection behind the real protocol.

:class:`~.sim_config.SimBoardConfig` holds the board's options (the same
names as the ``robodyn sim-board`` options and its ``--config`` YAML);
:func:`build_board`
makes a :class:`SimBoard`, whose :meth:`SimBoard.serve` runs the cycle loop in
real time on a pseudo-terminal or a UDP socket until stopped. The board's
*true* parameters (friction, actuators, payload) come from its own robot and
parameter file, so tests can make it differ from the host's model.
"""

from dataclasses import asdict
import heapq
import math
import select
import time

import numpy as np

from .axes_build import build_axes, true_model
from .cycle_kernel import COMPILED as CYCLE
from .endpoints import PtyEndpoint, UdpEndpoint
from .faults import ControlChannel, FaultInjector
from .firmware import SimFirmware
from .frame_kernel import COMPILED as FRAMES, CurrentsDatagramReader, StateFrameWriter
from ...hardware.board.codec import decode_message, encode_message, plausible_length
from ...hardware.board.framing import decode_frame, encode_frame, FrameParser
from ...hardware.board.reports import StateReport
from ...hardware.errors import CrcError, ProtocolError
from ...realtime.hygiene import setup_process, setup_thread, thaw_garbage

#: Longer than this since the last wait returned, the loop looks for arrived frames
#: again before it decides on a cycle (the process was not running meanwhile) [s].
CATCH_UP = 50e-6


class SimBoard:
    """
    A simulated board serving one host over a pty or UDP.

    Parameters
    ----------
    config : SimBoardConfig
        The options (checked).
    model : RobotModel
        The true model.

    """

    def __init__(self, config, model):
        config.check()
        self.config = config
        rng = np.random.default_rng(config.seed)
        self.axes, rating = build_axes(config, model, rng)
        self.model = self.axes.model
        self.injector = FaultInjector(rng)
        self.firmware = SimFirmware(self.axes, self.injector, rating,
                                    tuple(int(v) for v in config.firmware.split('.')),
                                    config.over_current_factor)
        from .faults import parse_fault_spec
        for spec in config.faults:
            name, params = parse_fault_spec(spec)
            self.injector.inject(name, params)
        if config.transport == 'pty':
            self.endpoint = PtyEndpoint(config.link or None)
        else:
            self.endpoint = UdpEndpoint(config.address, config.port)
        self.parser = FrameParser(plausible_length)
        self._report_writer = StateFrameWriter()        # the compiled forms of the cycle's
        self._currents_reader = CurrentsDatagramReader()    # frames (none: the general path)
        FRAMES.start()
        CYCLE.start()
        self.control = None
        self.tx_seq = 0
        self.counters = dict.fromkeys(
            ('ticks', 'overruns', 'rx_frames', 'rx_message_errors', 'rx_crc_injected',
             'rx_dropped', 'rx_foreign', 'tx_frames', 'tx_dropped', 'tx_failed'), 0)
        #: The host that enabled the outputs, while they are on (UDP; None: no session).
        self.session_peer = None
        self._delayed = []
        self._stop = False
        self._started = None
        self._waits = []
        #: What the real-time set-up applied, or why not (lines; see ``rt_priority``).
        self.hygiene = []
        self._polled = None       # the descriptors waited on: (control, link), -1 for none

    # ------------------------------------------------------------------ info
    def ready_info(self):
        """
        Where the board listens (printed as one JSON line at start).

        Returns
        -------
        dict
            Transport, device/link or address/port, control port, axes, rate.

        """
        info = {'ready': True, 'robot': self.model.name, 'axes': self.model.n,
                'rate': self.config.rate, 'inner_rate': self.config.rate * self.axes.substeps,
                'transport': self.config.transport,
                'control_port': self.control.port if self.control else None,
                'realtime': list(self.hygiene)}
        if self.config.transport == 'pty':
            info.update(device=self.endpoint.device, link=self.endpoint.link)
        else:
            info.update(address=self.config.address, port=self.endpoint.port)
        return info

    def status(self):
        """
        Full state for the control channel.

        Returns
        -------
        dict
            Firmware snapshot, counters, injected faults, achieved rate.

        """
        out = self.firmware.snapshot()
        out.update(self.counters)
        elapsed = time.monotonic() - self._started if self._started else 0.0
        out['achieved_rate'] = self.counters['ticks'] / elapsed if elapsed > 0 else 0.0
        out['injected'] = {k: dict(v) for k, v in self.injector.active.items()}
        out['injection_log'] = self.injector.log[-50:]
        out['parser'] = {'crc_errors': self.parser.crc_errors,
                         'header_errors': self.parser.header_errors,
                         'length_errors': self.parser.length_errors,
                         'truncated': self.parser.truncated}
        out['session_peer'] = list(self.session_peer) if self.session_peer else None
        out['link_open'] = self.endpoint.is_open
        out['device'] = getattr(self.endpoint, 'device', None)
        out['config'] = asdict(self.config)
        return out

    def control_request(self, req):
        """
        Execute one control-channel request.

        Parameters
        ----------
        req : dict
            ``{'cmd': 'inject'|'clear'|'status'|'state'|'quit', ...}``.

        Returns
        -------
        dict
            The reply.

        """
        cmd = req.get('cmd')
        t = self.firmware.time_us
        if cmd == 'status':
            return dict(self.status(), ok=True)
        if cmd == 'state':   # the plant's true state, cheap enough to poll at 100 Hz
            fw = self.firmware
            return {'ok': True, 'board_time_us': t, 'enabled': bool(fw.enabled),
                    'faults': int(fw.faults), 'q': [float(v) for v in self.axes.q],
                    'qd': [float(v) for v in self.axes.qd],
                    'enabled_cycles': fw.enabled_cycles, 'missed_cycles': fw.missed_cycles,
                    'catch_up_cycles': fw.catch_up_cycles}
        if cmd == 'inject':
            params = {k: v for k, v in req.items() if k not in ('cmd', 'fault')}
            params = self.injector.inject(str(req.get('fault')), params, t)
            self._apply_link_state()
            return {'ok': True, 'fault': req.get('fault'), 'params': params, 'board_time_us': t}
        if cmd == 'clear':
            self.injector.clear(str(req.get('fault', 'all')), t)
            self._apply_link_state()
            return {'ok': True, 'board_time_us': t}
        if cmd == 'quit':
            self._stop = True
            return {'ok': True}
        raise ValueError(f'unknown command {cmd!r} (inject, clear, status, state, quit)')

    # ------------------------------------------------------------------ I/O
    def _apply_link_state(self):
        if self.injector.disconnected and self.endpoint.is_open:
            self.endpoint.close(unlink=False)
            self.parser.reset()
            self._delayed.clear()
            self.session_peer = None
        elif not self.injector.disconnected and not self.endpoint.is_open:
            self.endpoint.connect()

    def send(self, msg):
        """Encode one message, apply the tx faults, and send or delay it."""
        frame = ((self._report_writer.encode(msg, self.tx_seq) if type(msg) is StateReport
                  else None) or encode_message(msg, self.tx_seq))
        self.tx_seq = (self.tx_seq + 1) & 0xFFFF
        if not self.endpoint.is_open or self.injector.drop('tx'):
            self.counters['tx_dropped'] += 1
            return
        frame = self.injector.corrupt(frame, 'tx')
        delay = self.injector.delay
        if delay > 0.0:
            release = self.firmware.time_us + int(round(delay * 1e6))  # board time, like the rest
            heapq.heappush(self._delayed, (release, self.counters['tx_frames'],
                                           frame))
            self.counters['tx_frames'] += 1
            return
        self._write(frame)

    def _write(self, frame):
        if self.endpoint.write(frame):
            self.counters['tx_frames'] += 1
        else:
            self.counters['tx_failed'] += 1

    def _flush_delayed(self):
        now = self.firmware.time_us
        while self._delayed and self._delayed[0][0] <= now:
            _, _, frame = heapq.heappop(self._delayed)
            if self.endpoint.is_open:
                self.endpoint.write(frame)

    def receive(self, data, peer=None):
        """
        Apply the rx faults to received bytes, parse them and run the firmware.

        On UDP each datagram is parsed on its own (a frame cut at its end is
        dropped, never completed by the next one), and while the outputs are
        on only the host that enabled them is heard: frames of any other
        sender are counted (``rx_foreign``) and ignored. The reply address
        follows a valid frame of the allowed host, never a damaged one.

        Parameters
        ----------
        data : bytes
            A chunk of the pty stream, or one datagram.
        peer : tuple, optional
            The datagram's sender (UDP).

        """
        if self.injector.drop('rx'):
            self.counters['rx_dropped'] += 1
            return
        fast = (self._currents_reader.read(data)      # one good set-currents datagram
                if self.endpoint.framed and not self.injector.active else None)
        if fast is not None:
            _, state_time_us, currents = fast
            self._obey(peer, self.firmware.take_currents, state_time_us, currents)
            frames = ()
        else:
            frames = (self.parser.feed_datagram(data) if self.endpoint.framed
                      else self.parser.feed(data))
        for frame in frames:
            try:
                if 'corrupt_crc' in self.injector.active:
                    # The frame's bytes with a CRC bit flipped, through the real CRC check.
                    raw = encode_frame(frame.msg_id, frame.seq, frame.payload)
                    frame = decode_frame(self.injector.corrupt(raw, 'rx'))
                msg = decode_message(frame)
            except CrcError:
                self.counters['rx_crc_injected'] += 1
                self.firmware.rx_errors += 1
                continue
            except ProtocolError:
                self.counters['rx_message_errors'] += 1
                self.firmware.rx_errors += 1
                continue
            self._obey(peer, self.firmware.handle, msg, frame.seq)
        self.firmware.rx_errors = (self.counters['rx_message_errors'] + self.parser.crc_errors
                                   + self.parser.header_errors + self.parser.length_errors
                                   + self.parser.truncated + self.counters['rx_crc_injected'])

    def _obey(self, peer, handler, *args):
        """Run ``handler(*args)`` for a valid frame from ``peer`` if heard; send its replies."""
        if not self._heard(peer):
            self.counters['rx_foreign'] += 1
            return
        self.counters['rx_frames'] += 1
        for reply in handler(*args):
            self.send(reply)
        if peer is not None and self.firmware.enabled and self.session_peer is None:
            self.session_peer = peer   # the host that enabled the outputs owns them

    def _heard(self, peer):
        """Whether a valid frame from ``peer`` is obeyed (and becomes the reply address)."""
        if peer is None:
            return True
        if self.session_peer is not None and not self.firmware.enabled:
            self.session_peer = None        # outputs off (disable, watchdog, fault): session over
        if self.session_peer is not None and peer != self.session_peer:
            return False
        self.endpoint.peer = peer
        return True

    def stop(self):
        """Ask :meth:`serve` to return."""
        self._stop = True

    def serve(self, on_ready=None):
        """
        Run the board in real time until stopped (or ``max_runtime`` passes).

        Parameters
        ----------
        on_ready : callable, optional
            Called with :meth:`ready_info` once the link is open.

        """
        cfg = self.config
        if cfg.control_port >= 0:
            self.control = ControlChannel(cfg.control_port, self.control_request)
        self.hygiene = setup_process() + setup_thread(cfg.rt_priority)
        try:                    # a port in use still closes the control channel and thaws
            if not self.injector.disconnected:
                self.endpoint.connect()
            if on_ready is not None:
                on_ready(self.ready_info())
            self._loop()
        finally:
            self.endpoint.close()
            if self.control is not None:
                self.control.close()
            thaw_garbage()

    def _due(self, now, next_tick, last_tick):
        """Whether the next cycle is due (real time, or lockstep with the host)."""
        fw = self.firmware
        if self.config.lockstep and fw.enabled and fw.streaming:
            # the report of this cycle was answered, or it went out before the enable
            answered = (fw.applied_state_time_us >= fw.time_us
                        or fw.enabled_since_us == fw.time_us)
            return answered or now >= last_tick + self.config.lockstep_timeout
        return now >= next_tick

    def _loop(self):
        period = 1.0 / self.config.rate
        start = self._started = time.monotonic()
        deadline = start + self.config.max_runtime if self.config.max_runtime > 0 else math.inf
        next_tick = start + period
        last_tick = start
        waited = -math.inf      # when the last wait (which serves what is ready) returned
        while not self._stop:
            # What arrived while this process was not running is taken first: a set-point
            # that reached the socket in time counts before the watchdog looks. Right after
            # a wait returned, that wait has taken it (one select a cycle less).
            if time.monotonic() - waited > CATCH_UP:
                self._poll_io(0.0)
            now = time.monotonic()
            if now >= deadline:
                break
            if self._due(now, next_tick, last_tick):
                late = now - next_tick
                if late > period and not self.config.lockstep:
                    self.counters['overruns'] += 1
                    self.firmware.overrun = True
                next_tick = now + period if late > 20 * period else next_tick + period
                if self.config.lockstep:
                    next_tick = now + period
                # A cycle less than half a period after the previous one catches up
                # (this process was not running): the host could not have answered.
                on_time = self.config.lockstep or now - last_tick >= 0.5 * period
                last_tick = now
                for msg in self.firmware.tick(on_time):
                    self.send(msg)
                self.counters['ticks'] += 1
            else:
                for msg in self.firmware.check_watchdog():
                    self.send(msg)
            self._flush_delayed()
            wake = next_tick
            if self.config.lockstep and self.firmware.enabled:
                wake = min(wake, last_tick + self.config.lockstep_timeout)
            self._poll_io(max(0.0, wake - time.monotonic()))
            waited = time.monotonic()

    def _poll_io(self, timeout):
        """Wait up to ``timeout`` [s] for the control channel or the link; serve them."""
        control = self.control.fileno() if self.control is not None else -1
        link = self.endpoint.fileno() if self.endpoint.is_open else -1
        if self._polled != (control, link):     # a link closed or opened: wait on the new one
            self._waits = [fd for fd in (control, link) if fd >= 0]
            self._polled = (control, link)
        # select, not poll or epoll: their timeouts are whole milliseconds (a 0.3 ms wait
        # would become 1 ms, a late cycle); numbers, so select calls no fileno methods.
        ready, _, _ = select.select(self._waits, [], [], timeout)
        for fd in ready:
            if fd == control:
                self.control.poll()
            elif self.endpoint.is_open:
                for data, peer in self.endpoint.read_chunks():
                    self.receive(data, peer)


def build_board(config):
    """
    Load the true model and build a simulated board.

    Parameters
    ----------
    config : SimBoardConfig
        The options.

    Returns
    -------
    SimBoard
        The board (not yet serving).

    """
    return SimBoard(config, true_model(config))
