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

"""``robodyn bench loop``: options, the stall injector, a short real run."""

import json
import math
import os
import subprocess
import sys
import time

import pytest
from robodyn_ros.bench.loop import goal, LoopBenchOptions, Staller
from robodyn_ros.errors import InputError
from robodyn_ros.model import load_robot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize('change', [{'mode': 'both'}, {'board_mode': 'voltage'},
                                    {'seconds': 0.5}, {'stall_ms': -1.0},
                                    {'stall_ms': 600.0}, {'stall_period': 0.05},
                                    {'stall_ms': 100.0, 'stall_period': 0.15},
                                    {'seconds': math.nan},
                                    {'board_mode': 'impedance', 'mode': 'graph'},
                                    {'board_mode': 'impedance', 'law': 'pid'},
                                    {'board_mode': 'impedance', 'inner_rate': 500.0},
                                    {'joint_states_decimation': 0},
                                    {'joint_states_decimation': 2, 'mode': 'graph'}])
def test_bad_options_are_named(change):
    """Each bad option is refused with its name."""
    opts = LoopBenchOptions(**change)
    with pytest.raises(InputError) as err:
        opts.check()
    assert err.value.argument.lstrip('-').replace('-', '_') in change


def test_bad_option_on_the_command_line_is_one_line():
    """A user error prints one line and exits 2, no traceback."""
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'loop',
                           '--seconds', '0'], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 2 and 'Traceback' not in proc.stderr
    assert '--seconds' in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_goal_is_long_enough_and_inside_the_limits():
    """The repeated tour has enough legs for the time and respects the joint limits."""
    model = load_robot('ur5')
    home = model.home_configuration()
    wp = goal(model, home, 30.0)
    assert len(wp) >= 30.0 / 0.75
    assert (wp >= model.lower_limits).all() and (wp <= model.upper_limits).all()


def test_staller_stops_a_process_for_the_stall():
    """A child that ticks every millisecond sees gaps of the stall's length, and runs on."""
    child = subprocess.Popen([sys.executable, '-c', (
        'import sys, time\n'
        'last = time.monotonic(); gaps = []\n'
        'end = last + 1.6\n'
        'while time.monotonic() < end:\n'
        '    time.sleep(0.001); now = time.monotonic(); gaps.append(now - last); last = now\n'
        'gaps.sort(); print(gaps[-1], gaps[-2], gaps[-3])\n')],
        stdout=subprocess.PIPE, text=True)
    time.sleep(0.2)
    staller = Staller(child.pid, 0.08, 0.3)
    staller.start()
    time.sleep(1.0)
    staller.stop()
    out, _ = child.communicate(timeout=10)
    gaps = [float(x) for x in out.split()]
    assert staller.count >= 2
    assert child.returncode == 0
    assert all(g >= 0.07 for g in gaps[:2])


def test_a_short_run_reports_every_figure():
    """Three seconds of the one-process loop: counters, timing, CPU and errors all there."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'loop',
                           '--seconds', '3', '--rate', '500', '--law', 'computed_torque',
                           '--json'], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout)
    for key in ('missed_fraction', 'host_cycle_p99_us', 'period_p99_ms', 'cpu', 'rms_deg',
                'max_deg'):
        assert key in res
    # The board ran cycles with the outputs on in the window, never more than real time
    # allows (a loaded machine slows the simulated board down, so no lower bound on rate).
    assert 100 <= res['enabled_cycles'] <= 1.2 * 500 * res['seconds'] + 50, res
    assert 0.0 <= res['missed_fraction'] <= 1.0, res
    assert 0 <= res['catch_up_cycles'] <= res['enabled_cycles'], res
    assert {'control_loop', 'sim_board', 'trajectory_planner'} <= set(res['cpu'])
    assert len(res['rms_deg']) == 6 and all(math.isfinite(x) for x in res['rms_deg'])
    assert all(m >= r for m, r in zip(res['max_deg'], res['rms_deg']))
    assert res['period_p50_ms'] > 0.0 and res['host_cycle_p99_us'] >= res['host_cycle_p50_us']


def test_a_short_graph_run_reports_the_controller_timing():
    """The two-node graph: the controller's period and compute come from its timing log."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'loop',
                           '--seconds', '3', '--rate', '500', '--law', 'computed_torque',
                           '--mode', 'graph', '--json'], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout)
    assert res['mode'] == 'graph'
    assert 1.0 <= res['period_p50_ms'] <= res['period_p99_ms'] <= res['period_max_ms'], res
    assert res['controller_compute_p99_us'] > 0.0 and res['law_p99_us'] > 0.0, res
    assert res['host_cycle_p99_us'] >= res['host_cycle_p50_us'] > 0.0, res
    assert {'hardware_interface', 'controller_computed_torque', 'sim_board'} <= set(res['cpu'])


def test_real_time_options_reach_the_loop_node_as_parameters():
    """--rt-priority, --cpus and --lock-memory become the node's parameters; defaults stay out."""
    from argparse import Namespace

    from robodyn_ros.cli.bench_cmd import _realtime_parameters
    none = Namespace(rt_priority=None, cpus=None, lock_memory=False)
    assert _realtime_parameters(none) == {}
    off = Namespace(rt_priority=0, cpus=None, lock_memory=False)
    assert _realtime_parameters(off) == {'rt_priority': 0}
    every = Namespace(rt_priority=80, cpus=[1], lock_memory=True)
    assert _realtime_parameters(every) == {'rt_priority': 80, 'cpus': [1], 'lock_memory': True}
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'loop',
                           '--rt-priority', '100'], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 2 and 'Traceback' not in proc.stderr
    assert '--rt-priority' in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_short_impedance_run_with_stalls():
    """--board-mode impedance with host stalls: the board mode and the stalls in the JSON."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    proc = subprocess.run([sys.executable, '-m', 'robodyn_ros.cli.main', 'bench', 'loop',
                           '--seconds', '3', '--rate', '500', '--law', 'computed_torque',
                           '--board-mode', 'impedance', '--inner-rate', '2000',
                           '--stall-ms', '20', '--joint-states-decimation', '5', '--json'],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout)
    assert res['board_mode'] == 'impedance' and res['inner_rate_hz'] == 2000.0
    assert res['joint_states_hz'] == 100.0
    assert res['stalls'] >= 1 and res['stall_ms'] == 20.0
    assert len(res['max_deg']) == 6 and all(math.isfinite(x) for x in res['max_deg'])
    assert 100 <= res['enabled_cycles'] <= 1.2 * 500 * res['seconds'] + 50, res
