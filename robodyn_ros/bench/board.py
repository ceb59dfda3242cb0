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
``robodyn bench board``: host-board round trip, sustained 1 kHz loop, node cycle time.

Three measurements against simulated boards started as separate processes
(real pseudo-terminal and UDP links on 127.0.0.1), interleaved pty/UDP in
batches so that machine load hits both alike:

* **round trip**: a heartbeat sent, its echo received (host clock), while the
  board streams state reports at its rate;
* **sustained loop**: the host answers every state report with a set-points
  frame for a while; reported are the report rate seen by the host (against
  wall time), the board's achieved cycle rate and overruns, reports the host
  had to skip, the host-side inter-arrival times, and the loop latency in
  board cycles (state report -> set-points applied);
* **node cycle**: the ``hardware_interface`` node as its own process, active
  on a pty board, commands arriving on ``joint_commands`` at 100 Hz: from its
  diagnostics, the time from receiving a report to sending the currents
  (decoding, conversion, velocity filter, friction compensation, limits,
  encoding) and the time to publish ``joint_states``, with the rates.

Numbers depend on the machine; nothing here is a test.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


#: Help and description of ``robodyn bench board``.
HELP = 'driver-board link and hardware_interface cycle time'
DESCRIPTION = ('Round trip and sustained 1 kHz loop over pty and UDP against simulated boards, '
               'and the hardware_interface node cycle time.')


def _percentiles(values, scale=1.0):
    arr = np.asarray(values, dtype=float) * scale
    if arr.size == 0:
        return {'p50': None, 'p99': None, 'n': 0}
    return {'p50': float(np.percentile(arr, 50)), 'p99': float(np.percentile(arr, 99)),
            'max': float(arr.max()), 'n': int(arr.size)}


class _Board:
    def __init__(self, robot, transport, tmp):
        cmd = [sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-board', robot,
               '--transport', transport, '--no-load-friction', '--max-runtime', '900']
        if transport == 'pty':
            cmd += ['--link', os.path.join(tmp, 'board')]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     stdin=subprocess.DEVNULL, text=True)
        self.info = json.loads(self.proc.stdout.readline())

    def transport(self):
        from ..hardware.board.transports import SerialTransport, UdpTransport
        if self.info['transport'] == 'pty':
            return SerialTransport(self.info['link'])
        return UdpTransport('127.0.0.1', self.info['port'])

    def status(self):
        from ..sim.board.faults import control_request
        return control_request(self.info['control_port'], {'cmd': 'status'})

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(5.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _round_trips(driver, count):
    from ..hardware.board.messages import HeartbeatReply
    while driver.client.receive(0.05):
        pass
    out = []
    for _ in range(count):
        token = driver.client.heartbeat()
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            msgs = driver.client.receive(0.05)
            reply = [m for m in msgs if isinstance(m, HeartbeatReply) and m.token == token]
            if reply:
                out.append(time.monotonic() - token * 1e-6)
                break
    return out


def _sustained(driver, board, seconds):
    zero = np.zeros(driver.model.n)
    before = board.status()
    reports0, skipped0 = driver.reports, driver.skipped
    arrivals, latency = [], []
    start = time.monotonic()
    first = last = None
    while time.monotonic() - start < seconds:
        s = driver.read(0.1)
        if s is None:
            continue
        driver.send_currents(s, zero)
        arrivals.append(s.host_time)
        if s.latency_us > 0:
            latency.append(s.latency_us)
        first = first or s
        last = s
    wall = time.monotonic() - start
    after = board.status()
    ticks = after['ticks'] - before['ticks']
    board_seconds = (last.board_time_us - first.board_time_us) * 1e-6 if last else 0.0
    return {
        'wall_s': wall, 'reports': driver.reports - reports0,
        'host_report_rate_hz': (driver.reports - reports0) / wall,
        'board_cycle_rate_hz': ticks / wall, 'board_overruns': after['overruns']
        - before['overruns'], 'skipped_reports': driver.skipped - skipped0,
        'board_seconds': board_seconds,
        'interarrival_ms': _percentiles(np.diff(arrivals), 1e3),
        'latency_cycles': _percentiles(latency, 1e-3),
        'stale_set_points': after['stale_commands'] - before['stale_commands'],
        'watchdog_trips': sum('watchdog' in e['faults'] for e in after['fault_events'])
        - sum('watchdog' in e['faults'] for e in before['fault_events']),
    }


def _link_benchmarks(args, tmp):
    from ..hardware.board.driver import BoardDriver
    from ..model import load_robot
    model = load_robot(args.robot)
    boards = {t: _Board(args.robot, t, tmp) for t in ('pty', 'udp')}
    drivers = {}
    try:
        for t, b in boards.items():
            drivers[t] = BoardDriver(model, b.transport())
            drivers[t].connect(timeout=5.0)
        rtt = {t: [] for t in boards}
        loops = {t: [] for t in boards}
        for k in range(args.batches):
            order = list(boards) if k % 2 == 0 else list(boards)[::-1]
            for t in order:
                rtt[t] += _round_trips(drivers[t], max(1, args.pings // args.batches))
            for t in order:
                while drivers[t].client.receive(0.05):
                    pass  # drop what piled up while the other link was measured
                drivers[t].clear_fault()
                drivers[t].enable()
                loops[t].append(_sustained(drivers[t], boards[t], args.seconds / args.batches))
                drivers[t].disable()
        out = {}
        for t in boards:
            runs = loops[t]
            out[t] = {
                'round_trip_ms': _percentiles(rtt[t], 1e3),
                'host_report_rate_hz': statistics.median(r['host_report_rate_hz']
                                                         for r in runs),
                'board_cycle_rate_hz': statistics.median(r['board_cycle_rate_hz']
                                                         for r in runs),
                'board_overruns': sum(r['board_overruns'] for r in runs),
                'reports': sum(r['reports'] for r in runs),
                'skipped_reports': sum(r['skipped_reports'] for r in runs),
                'stale_set_points': sum(r['stale_set_points'] for r in runs),
                'watchdog_trips': sum(r['watchdog_trips'] for r in runs),
                'interarrival_ms_p50': statistics.median(r['interarrival_ms']['p50']
                                                         for r in runs),
                'interarrival_ms_p99': statistics.median(r['interarrival_ms']['p99']
                                                         for r in runs),
                'latency_cycles_p50': statistics.median(r['latency_cycles']['p50']
                                                        for r in runs),
                'latency_cycles_p99': statistics.median(r['latency_cycles']['p99']
                                                        for r in runs),
            }
        return out
    finally:
        for d in drivers.values():
            d.close()
        for b in boards.values():
            b.close()


def _node_cycle(args, tmp):
    """Run the node as its own process on a pty board; read its statistics."""
    from ..nodes.bench_peers import hardware_interface_cycle
    board = _Board(args.robot, 'pty', tmp)
    try:
        result = hardware_interface_cycle(args.robot, board.info['link'], board.info['axes'],
                                          args.seconds)
        result['board'] = board.status()['achieved_rate']
        return result
    finally:
        board.close()


def _components(robot, repeat=2000):
    """CPU time of each step of one host cycle, in one thread, no I/O [ms]."""
    from ..control.filters import StateVariableFilter
    from ..hardware.board import codec
    from ..hardware.command import CommandChannel
    from ..hardware.current_command import CurrentCommand
    from ..hardware.board.framing import FrameParser
    from ..friction.compensation import FrictionCompensator
    from ..hardware.board.messages import Identify, StateReport
    from ..hardware.scaling import axis_parameters, joint_scaling
    from ..model import load_robot
    model = load_robot(robot)
    n = model.n
    sc = joint_scaling(axis_parameters(model), Identify(1, (1, 0, 0), 0.001, (4096,) * n,
                                                        (8.0,) * n))
    frame = codec.encode_message(StateReport(1000, 3, 0, 999, 0, tuple(range(n)),
                                             (0.1,) * n), 5)
    parser = FrameParser(codec.plausible_length)
    filt = StateVariableFilter.velocity_estimator(n)
    comp = FrictionCompensator(model)
    pipe = CurrentCommand(model, sc, sc.current_limit)
    buf = CommandChannel(n)
    buf.put(np.zeros(n), time.monotonic())
    decoded = codec.decode_message(parser.feed(frame)[0])
    q = sc.position(decoded.counts)
    qd = np.full(n, 0.1)
    steps = {
        'parse': lambda: parser.feed(frame),
        'decode': lambda: codec.decode_message(parser.feed(frame)[0]),
        'counts_to_q': lambda: sc.position(decoded.counts),
        'velocity_filter': lambda: filt.update(q, 0.001),
        'friction_velocity_term': lambda: comp.velocity_term(qd),
        'command_get': lambda: buf.get(time.monotonic(), 0.1),
        'limits_and_currents': lambda: pipe(q, np.zeros(n), qd, 0.05),
        'encode_set_currents': lambda: codec.encode_set_currents(1000, qd, 3),
    }
    out = {}
    for name, step in steps.items():
        step()
        start = time.perf_counter()
        for _ in range(repeat):
            step()
        out[name] = (time.perf_counter() - start) / repeat * 1e3
    out['total'] = sum(out.values())
    return out


def _load_friction_cost(robot, repeat=50):
    from ..friction.compensation import FrictionCompensator
    from ..model import load_robot
    model = load_robot(robot)
    comps = {b: FrictionCompensator(model, load=True, backend=b) for b in ('numpy', 'auto')}
    if not comps['numpy'].load:
        return None
    q = np.zeros(model.n)
    qd = np.full(model.n, 0.1)
    out = {}
    for k in range(repeat):  # interleaved
        for name, comp in comps.items():
            t = time.perf_counter()
            comp.load_term(q, qd, q)
            out.setdefault(name, []).append(time.perf_counter() - t)
    velocity = []
    for _ in range(repeat * 20):
        t = time.perf_counter()
        comps['numpy'].velocity_term(qd)
        velocity.append(time.perf_counter() - t)
    return {'load_term_ms': _percentiles(out['numpy'], 1e3),
            'load_term_kernels_ms': _percentiles(out['auto'], 1e3),
            'velocity_term_ms': _percentiles(velocity, 1e3)}


def run(args):
    """
    Execute ``robodyn bench board``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0.

    """
    from .timing import phase
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix='robodyn_bench_') as tmp:
        phase(f'board link over pty and UDP: {args.pings} round trips, a {args.seconds:g} s '
              'sustained loop each')
        links = _link_benchmarks(args, tmp)
        phase('hardware_interface node cycle time')
        node = _node_cycle(args, tmp)
    phase('load-dependent friction and cycle components')
    result = {'robot': args.robot, 'load_before': load[0], 'load_after': os.getloadavg()[0],
              'links': links, 'node': node, 'friction': _load_friction_cost(args.robot),
              'components_ms': _components(args.robot)}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f'robodyn bench board ({args.robot}; load {result["load_before"]:.2f} -> '
          f'{result["load_after"]:.2f})')
    print('link  rtt p50/p99 [ms]  host rate [Hz]  board rate [Hz]  overruns  skipped  '
          'interarrival p50/p99 [ms]  latency p50/p99 [cycles]  watchdog trips')
    for t, r in links.items():
        rt = r['round_trip_ms']
        print(f'{t:4s}  {rt["p50"]:.3f}/{rt["p99"]:.3f}  {r["host_report_rate_hz"]:.0f}  '
              f'{r["board_cycle_rate_hz"]:.0f}  {r["board_overruns"]}  '
              f'{r["skipped_reports"]}/{r["reports"]}  {r["interarrival_ms_p50"]:.3f}/'
              f'{r["interarrival_ms_p99"]:.3f}  {r["latency_cycles_p50"]:.0f}/'
              f'{r["latency_cycles_p99"]:.0f}  {r["watchdog_trips"]}')
    v = node['values']
    print(f'node process: cycle (report received -> currents sent) p50/p99 '
          f'{v.get("cycle_time_p50_us")}/{v.get("cycle_time_p99_us")} us; joint_states '
          f'publish p50/p99 {v.get("publish_time_p50_us")}/{v.get("publish_time_p99_us")} us; '
          f'report rate {v.get("report_rate_hz")} Hz, board {node["board"]:.0f} Hz, '
          f'joint_states received {node["joint_states_rate_hz"]:.0f} Hz; skipped '
          f'{v.get("skipped_reports")}; health: {node["message"]}')
    comp = result['components_ms']
    print('one host cycle, CPU per step [us]: ' + ', '.join(
        f'{k} {v * 1e3:.1f}' for k, v in comp.items()))
    if result['friction']:
        f = result['friction']
        print(f'friction compensation: velocity term p50 {f["velocity_term_ms"]["p50"]:.3f} '
              f'ms, load-dependent term p50: numpy RNE {f["load_term_ms"]["p50"]:.3f} ms, '
              f'compiled kernels {f["load_term_kernels_ms"]["p50"]:.3f} ms')
    return 0
