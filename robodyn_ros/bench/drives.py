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
``robodyn bench drives``: the CiA 402 backend's cycle on simulated drives.

For each rate, one ``robodyn sim-drive`` process (one drive per joint of
the robot, 6 for the PUMA 560) and the backend in this process talk
CANopen over ``udp_multicast`` inside a network namespace of the bench's
own (loopback only). The backend runs its cycle for ``seconds``: SYNC, the
TPDOs, and the RPDOs with the currents that hold the arm where it started.
Measured:

* SYNC-to-RPDO latency p50 / p99: from a SYNC leaving the host to the last
  RPDO computed from the drives' answers to it leaving the host [us]: one
  period (the host reads the answers at the next cycle's time, never
  waiting for them) plus the host's part; and the host's part alone, from
  reading the answers to the RPDOs sent;
* backend CPU per cycle: this process's CPU time (the cycle, ``canopen``'s
  receive thread, the host heartbeat) over the SYNCs sent [us];
* the cycles that had every drive's TPDOs in their window, those that used
  a drive's answer of an earlier cycle, those without a sample;
* the drive set's time from receiving a SYNC to its last TPDO sent
  (p50 / p99) and its CPU share, and the nominal bus load of the PDO traffic
  (SYNC, one RPDO and two TPDOs per drive, without bit stuffing) on a
  1 Mbit/s bus.
"""

import json
import os
import subprocess
import sys
import time

import numpy as np

from ..hardware.cia402.bus import frame_bits

#: Rates benchmarked by default [Hz].
RATES = (500.0, 1000.0)


def _cpu(pid):
    try:
        with open(f'/proc/{pid}/stat', encoding='ascii') as fh:
            fields = fh.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
    except (OSError, ValueError, IndexError):
        return float('nan')


def _start_drives(robot, rate):
    argv = [sys.executable, '-m', 'robodyn_ros.cli.main', 'sim-drive', robot,
            '--no-load-friction', '--rate', f'{rate:g}', '--control-port', '0']
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if not line.startswith('{'):
        proc.kill()
        raise RuntimeError(f'sim-drive did not start: {line!r}')
    return proc, json.loads(line)


def bus_load(n, rate, bitrate=1000000):
    """
    Nominal load of one cycle's PDO traffic.

    Parameters
    ----------
    n : int
        Drives.
    rate : float
        Cycles per second [Hz].
    bitrate : int
        Bus bitrate [bit/s].

    Returns
    -------
    float
        Share of the bus [%]: SYNC, n RPDOs of 4 bytes, 2n TPDOs of 6 bytes.

    """
    import can

    def bits_of(size):
        return frame_bits(can.Message(data=bytes(size), is_extended_id=False))

    bits = bits_of(0) + n * bits_of(4) + 2 * n * bits_of(6)
    return 100.0 * bits * rate / bitrate


def measure(robot, rate, seconds):
    """
    Run the backend's cycle at one rate and measure it.

    Parameters
    ----------
    robot : str
        Robot (one drive per joint).
    rate : float
        SYNC rate [Hz].
    seconds : float
        Measured time [s].

    Returns
    -------
    dict
        The numbers of the module docstring.

    """
    from ..dynamics import gravity_torques
    from ..hardware.cia402.driver import Cia402Driver
    from ..hardware.cia402.settings import Cia402Settings
    from ..model import load_robot
    model = load_robot(robot)
    drives, ready = _start_drives(robot, rate)
    driver = Cia402Driver(model, Cia402Settings(
        node_ids=tuple(ready['node_ids']), cycle_period=1.0 / rate, watchdog_period=0.5,
        heartbeat_timeout=2.0))
    try:
        driver.connect(timeout=10.0)
        sample = None
        while sample is None:
            sample = driver.read(0.01)
        ax = driver.axes
        amps = gravity_torques(model, sample.position) / (
            ax.efficiency * ax.gear_ratio * ax.torque_constant)
        driver.enable()
        for _ in range(int(rate)):           # one second to settle
            s = driver.read(0.01)
            if s is not None:
                driver.send_currents(s, amps)
        c = driver.cycle.counters
        base = dict(vars(c))
        driver.cycle.latencies.clear()
        driver.cycle.compute.clear()
        cpu0, drives0, t0 = time.process_time(), _cpu(drives.pid), time.monotonic()
        samples = 0
        while time.monotonic() - t0 < seconds:
            s = driver.read(0.01)
            if s is not None:
                samples += 1
                driver.send_currents(s, amps)
        wall = time.monotonic() - t0
        cpu, drives_cpu = time.process_time() - cpu0, _cpu(drives.pid) - drives0
        lat = np.array(driver.cycle.latencies) * 1e6
        host = np.array(driver.cycle.compute) * 1e6
        cycles = c.cycles - base['cycles']
        from ..sim.board.faults import control_request
        status = control_request(ready['control_port'], {'cmd': 'status'}, timeout=5.0)
        driver.disable()
        return {'rate_hz': rate, 'drives': model.n, 'seconds': wall, 'syncs': cycles,
                'sync_rate_hz': cycles / wall, 'samples': samples,
                'complete': c.complete - base['complete'],
                'stale_answers': c.stale - base['stale'],
                'cycles_without_sample': cycles - samples,
                'latency_p50_us': float(np.percentile(lat, 50)) if lat.size else None,
                'latency_p99_us': float(np.percentile(lat, 99)) if lat.size else None,
                'host_p50_us': float(np.percentile(host, 50)) if host.size else None,
                'host_p99_us': float(np.percentile(host, 99)) if host.size else None,
                'cpu_per_cycle_us': 1e6 * cpu / max(cycles, 1),
                'backend_cpu_percent': 100.0 * cpu / wall,
                'drive_set_cpu_percent': 100.0 * drives_cpu / wall,
                'bus_load_percent': bus_load(model.n, rate),
                'paced_sends': driver.bus.counters.paced,
                'drive_sync_to_tpdo_us': status.get('sync_to_tpdo_us')}
    finally:
        driver.close()
        drives.terminate()
        try:
            drives.wait(10)
        except subprocess.TimeoutExpired:
            drives.kill()


def run(robot='puma560', rates=RATES, seconds=10.0):
    """
    Benchmark every rate (inside a CAN namespace).

    Parameters
    ----------
    robot : str
        Robot.
    rates : sequence of float
        SYNC rates [Hz].
    seconds : float
        Measured time per rate [s].

    Returns
    -------
    dict
        ``{'robot', 'load_average', 'runs': [...]}``.

    """
    runs = [measure(robot, float(r), seconds) for r in rates]
    return {'robot': robot, 'load_average': os.getloadavg()[0], 'runs': runs}


def format_drives(res):
    """
    Format the results as a table.

    Parameters
    ----------
    res : dict
        From :func:`run`.

    Returns
    -------
    str
        One row per rate.

    """
    lines = [f'CiA 402 backend on simulated drives ({res["robot"]}), udp_multicast in a network '
             f'namespace; load average {res["load_average"]:.1f} at the start',
             f'{"rate":>6} {"drives":>6} {"SYNC/s":>7} {"p50 [us]":>9} {"p99 [us]":>9} '
             f'{"host p50/p99":>13} '
             f'{"CPU/cycle [us]":>14} {"complete":>9} {"stale":>6} {"no sample":>9} '
             f'{"drives CPU":>10} {"bus load":>8} {"drives SYNC-TPDO p50/p99 [us]":>30}']
    for r in res['runs']:
        lines.append(f'{r["rate_hz"]:>6g} {r["drives"]:>6} {r["sync_rate_hz"]:>7.0f} '
                     f'{r["latency_p50_us"]:>9.0f} {r["latency_p99_us"]:>9.0f} '
                     + f'{r["host_p50_us"]:.0f}/{r["host_p99_us"]:.0f}'.rjust(13) + ' '
                     f'{r["cpu_per_cycle_us"]:>14.0f} '
                     f'{100.0 * r["complete"] / max(r["syncs"], 1):>8.1f}% '
                     f'{r["stale_answers"]:>6} {r["cycles_without_sample"]:>9} '
                     f'{r["drive_set_cpu_percent"]:>9.0f}% {r["bus_load_percent"]:>7.0f}% '
                     + (' / '.join(f'{v:.0f}' for v in r['drive_sync_to_tpdo_us'])
                        if r['drive_sync_to_tpdo_us'] else 'n/a').rjust(30))
    return '\n'.join(lines)
