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

"""Child processes of the demo: failures are named, nothing outlives the group."""

import os
import signal
import subprocess
import sys
import time

import pytest
from robodyn_ros.demo.processes import PartFailed, ProcessGroup


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f'/proc/{pid}/stat') as fh:  # a zombie is gone for our purpose
        return fh.read().rsplit(')', 1)[1].split()[0] != 'Z'


def test_failed_part_is_named_with_its_log(tmp_path):
    """A part that exits is reported by name with its exit code and last log line."""
    group = ProcessGroup(str(tmp_path), dict(os.environ))
    group.start('sleeper', [sys.executable, '-c', 'import time; time.sleep(60)'])
    group.start('crasher', [sys.executable, '-c',
                            'import sys; print("board port busy"); sys.exit(3)'])
    with pytest.raises(PartFailed) as info:
        group.wait_until(lambda: False, 20.0, 'never')
    assert info.value.part == 'crasher' and 'code 3' in str(info.value)
    assert 'board port busy' in str(info.value) and info.value.log.endswith('crasher.log')
    codes = group.stop(timeout=2.0)
    assert codes['crasher'] == 3 and codes['sleeper'] is not None
    assert not any(_alive(p) for p in group.pids().values())


def test_timeout_blames_the_part(tmp_path):
    """A wait that times out names the part it was waiting for."""
    group = ProcessGroup(str(tmp_path), dict(os.environ))
    group.start('slow', [sys.executable, '-c', 'import time; time.sleep(60)'])
    with pytest.raises(PartFailed, match='slow: timed out after 0.3 s waiting for a sign'):
        group.wait_until(lambda: False, 0.3, 'a sign', 'slow')
    group.stop(timeout=2.0)


def test_stop_escalates_and_reaps_grandchildren(tmp_path):
    """A part that ignores SIGINT and SIGTERM is killed, with the processes it started."""
    code = ('import signal, subprocess, sys, time\n'
            'signal.signal(signal.SIGINT, signal.SIG_IGN)\n'
            'signal.signal(signal.SIGTERM, signal.SIG_IGN)\n'
            'child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])\n'
            'print(child.pid, flush=True)\n'
            'time.sleep(60)\n')
    group = ProcessGroup(str(tmp_path), dict(os.environ))
    part = group.start('stubborn', [sys.executable, '-c', code])
    group.wait_until(lambda: part.log_tail(1).strip().isdigit(), 20.0, 'the child pid')
    grandchild = int(part.log_tail(1))
    t0 = time.monotonic()
    codes = group.stop(timeout=0.5)
    assert codes['stubborn'] == -signal.SIGKILL
    assert time.monotonic() - t0 < 10.0
    deadline = time.monotonic() + 5.0
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_children_die_with_a_killed_parent(tmp_path):
    """Killing the demo itself with SIGKILL leaves no part behind (PR_SET_PDEATHSIG)."""
    script = (
        'import os, sys, time\n'
        'from robodyn_ros.demo.processes import ProcessGroup\n'
        f'g = ProcessGroup({str(tmp_path)!r}, dict(os.environ))\n'
        'p = g.start("part", [sys.executable, "-c", "import time; time.sleep(60)"])\n'
        'print(p.pid, flush=True)\n'
        'time.sleep(60)\n')
    parent = subprocess.Popen([sys.executable, '-c', script], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 5.0
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_cannot_execute(tmp_path):
    """A missing program is a PartFailed naming the part."""
    group = ProcessGroup(str(tmp_path), dict(os.environ))
    with pytest.raises(PartFailed, match='ghost: cannot start'):
        group.start('ghost', [str(tmp_path / 'no_such_program')])


def _timer_node(name, callback):
    """Return a run_node script whose node ``name`` calls ``callback`` (its source) every 0.1 s."""
    function = callback.split('def ', 1)[1].split('(', 1)[0]
    return (f'import ctypes\nimport time\nfrom rclpy.node import Node\n'
            f'from robodyn_ros.nodes.runner import run_node\n\n\n{callback}\n\n'
            f'def make():\n    node = Node({name!r})\n'
            f'    node.create_timer(0.1, {function})\n    return node\n\n\nrun_node(make)\n')


HUNG_NODE = _timer_node('hung', """def stuck_in_a_callback():
    print('stuck', flush=True)
    time.sleep(600)
""")


def test_a_hung_node_prints_its_stacks_when_asked(tmp_path):
    """dump_stacks (SIGUSR1) makes a node whose executor is blocked show where."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', PYTHONUNBUFFERED='1')
    group = ProcessGroup(str(tmp_path), env)
    part = group.start('hung', [sys.executable, '-c', HUNG_NODE])
    try:
        group.wait_until(lambda: 'stuck' in part.log_tail(), 60.0, 'the callback', 'hung')
        group.dump_stacks('hung')
        deadline = time.monotonic() + 10.0
        while 'stuck_in_a_callback' not in part.log_tail(50) and time.monotonic() < deadline:
            time.sleep(0.1)
        tail = part.log_tail(50)
        assert 'stuck_in_a_callback' in tail and 'thread 0x' in tail
        group.check()                                  # still running: SIGUSR1 did not kill it
        group.dump_stacks('nobody')                    # an unknown part is ignored
    finally:
        group.stop(timeout=2.0)


CRASHING_NODE = _timer_node('crashing', """def crash_in_native_code():
    ctypes.string_at(0)
""")


def test_a_node_that_crashes_in_native_code_leaves_its_stacks_in_its_log(tmp_path):
    """A segmentation fault ends the node with the Python stacks of its threads in its log."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    env.pop('PYTHONFAULTHANDLER', None)
    group = ProcessGroup(str(tmp_path), env)
    part = group.start('crashing', [sys.executable, '-c', CRASHING_NODE])
    try:
        assert part.process.wait(60.0) == -signal.SIGSEGV
        tail = part.log_tail(60)
        assert 'Segmentation fault' in tail and 'crash_in_native_code' in tail, tail
    finally:
        group.stop(timeout=2.0)


EXIT_HANGS = """
import time
from rclpy.node import Node
from robodyn_ros.nodes.runner import run_node


class ExitHangs(Node):

    def __init__(self):
        super().__init__('exit_hangs')
        print('up', flush=True)

    def on_process_exit(self):
        time.sleep(60)


run_node(ExitHangs)
"""


def test_a_node_whose_exit_hangs_leaves_its_stacks_before_it_is_terminated(tmp_path):
    """stop(): a node that outlives SIGINT's grace time prints where it hangs, then goes."""
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    group = ProcessGroup(str(tmp_path), env)
    part = group.start('exit_hangs', [sys.executable, '-c', EXIT_HANGS], is_node=True)
    other = group.start('plain', [sys.executable, '-c', 'import time; time.sleep(60)'])
    assert part.is_node and not other.is_node
    group.wait_until(lambda: 'up' in part.log_tail(), 60.0, 'the node', 'exit_hangs')
    codes = group.stop(timeout=1.0)
    tail = part.log_tail(80)
    assert 'on_process_exit' in tail and 'thread 0x' in tail, tail
    assert codes['exit_hangs'] in (-signal.SIGTERM, -signal.SIGKILL)
    # Not a node: never sent SIGUSR1 (SIGINT may be ignored where the run was started in the
    # background, so SIGTERM can be what ends it).
    assert codes['plain'] in (-signal.SIGINT, -signal.SIGTERM)


def _stamped_exit(delay):
    """Return a script that logs when SIGINT came and when it exits, ``delay`` s later."""
    return ('import signal, sys, time\n\n\n'
            'def on_sigint(signum, frame):\n'
            '    print("got", time.monotonic(), flush=True)\n'
            f'    time.sleep({delay!r})\n'
            '    print("exit", time.monotonic(), flush=True)\n'
            '    sys.exit(0)\n\n\n'
            'signal.signal(signal.SIGINT, on_sigint)\n'
            'print("up", flush=True)\n'
            'while True:\n'
            '    time.sleep(0.05)\n')


def _stamps(part):
    return {w[0]: float(w[1]) for w in (ln.split() for ln in part.log_tail(10).splitlines())
            if len(w) == 2 and w[0] in ('got', 'exit')}


def test_stop_winds_the_nodes_down_together_and_the_board_last(tmp_path):
    """Every node has its SIGINT before any has finished; the board's comes after them all."""
    group = ProcessGroup(str(tmp_path), dict(os.environ))
    board = group.start('board', [sys.executable, '-c', _stamped_exit(0.0)])
    nodes = [group.start(name, [sys.executable, '-c', _stamped_exit(2.0)], is_node=True)
             for name in ('interface', 'controller')]
    for part in (board, *nodes):
        group.wait_until(lambda p=part: 'up' in p.log_tail(), 30.0, 'start-up', part.name)
    codes = group.stop(timeout=10.0)
    assert codes == {'board': 0, 'interface': 0, 'controller': 0}, codes
    first, second = (_stamps(p) for p in nodes)
    assert first['got'] < second['exit'] and second['got'] < first['exit'], (first, second)
    assert _stamps(board)['got'] > max(first['exit'], second['exit'])
