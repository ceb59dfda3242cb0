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
Shared test set-up.

Every test run keeps DDS on loopback (``ROS_AUTOMATIC_DISCOVERY_RANGE``,
overridable) and takes a ROS domain ID of its own, so that concurrent runs on
one machine never see each other's nodes. Each pytest-xdist worker is a run
of its own here: it locks a domain of its own.

Tests that judge something while it runs at its rate (the demo, the fault
campaigns measuring drift, the loop benchmarks) are marked ``serial``:
``scripts/test.sh`` runs them alone, after the other tests have run on every
core, so that no other test takes their CPU. The list is by module, below.
"""

import fcntl
import gc
import os
import sys
import tempfile

from hypothesis import settings
import pytest

_DOMAIN_LOCK = None


# Modules whose tests run a graph of nodes at its rate (the demo, the fault
# campaigns, the loop benchmarks) and judge drift or tracking, time a
# thread, or need the host's stream to the board unbroken through a fault
# and its recovery (test_hardware_faults: with three workers on two cores a
# host stall tripped the board's watchdog after a reset): they run alone
# (``-m serial``), not beside other tests on the same cores (``-m "not
# serial" -n auto``). The other tests of one node or one interface against a
# simulated board passed beside two and three workers.
SERIAL_MODULES = frozenset({
    'test_bench_controller_node', 'test_bench_loop', 'test_bench_publish_stall',
    'test_cia402_graph', 'test_control_loop_node', 'test_demo', 'test_fault_campaign',
    'test_gil_free_publisher', 'test_hardware_faults',
})


def pytest_collection_modifyitems(config, items):
    """Mark the tests of :data:`SERIAL_MODULES` ``serial``."""
    for item in items:
        if item.path.stem in SERIAL_MODULES:
            item.add_marker(pytest.mark.serial)


def _claim_domain_id():
    """Lock a free domain ID in 101..199 for this process (released at exit)."""
    global _DOMAIN_LOCK
    explicit = os.environ.get('ROBODYN_TEST_DOMAIN_ID')
    if explicit:
        # xdist workers (gw0, gw1, ...) each take the next ID after the given one.
        worker = os.environ.get('PYTEST_XDIST_WORKER', 'gw0')[2:]
        if explicit.isdigit() and worker.isdigit():
            return str(int(explicit) + int(worker))
        return explicit
    start = os.getpid() % 99
    for k in range(99):
        domain = 101 + (start + k) % 99
        path = os.path.join(tempfile.gettempdir(), f'robodyn_test_domain_{domain}.lock')
        fh = open(path, 'w')
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            continue
        _DOMAIN_LOCK = fh
        return str(domain)
    raise RuntimeError('no free ROS domain ID in 101..199 for the tests')


os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
os.environ['ROS_DOMAIN_ID'] = _claim_domain_id()


def pytest_unconfigure(config):
    """Release the domain lock when the session ends."""
    if _DOMAIN_LOCK is not None:
        _DOMAIN_LOCK.close()


# Property tests are deterministic in CI: same examples on every run.
settings.register_profile('robodyn', derandomize=True, deadline=None)
settings.load_profile(os.environ.get('ROBODYN_HYPOTHESIS_PROFILE', 'robodyn'))


@pytest.fixture(autouse=True)
def _no_frozen_collector_left():
    """
    Fail a test that leaves the garbage collector frozen (a loop not stopped).

    A frozen object is never collected: every node destroyed afterwards in
    this process would keep its context and DDS participant, and many
    participants in one process met a Fast DDS deadlock at destruction.
    """
    from robodyn_ros.realtime import hygiene
    before = hygiene._FREEZE['holders']
    yield
    left = hygiene._FREEZE['holders'] - before
    assert left <= 0, f'{left} garbage-collector freeze(s) not released (a loop not stopped)'


@pytest.fixture(autouse=True)
def _collect_ended_ros_graphs():
    """After a test that ended a ``RosGraph``: collect, so its DDS participant goes now."""
    helpers = sys.modules.get('ros_helpers')
    before = helpers.GRAPHS_ENDED[0] if helpers else 0
    yield
    helpers = sys.modules.get('ros_helpers')
    if helpers is not None and helpers.GRAPHS_ENDED[0] != before:
        gc.collect()


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def data_dir():
    """Folder of the test input files."""
    return DATA


@pytest.fixture(scope='session')
def ur5_urdf():
    """Path of example-robot-data's UR5 URDF."""
    from robodyn_ros.model.example_robots import example_urdf
    return example_urdf('ur5')


@pytest.fixture(scope='session')
def panda_urdf():
    """Path of example-robot-data's Panda URDF."""
    from robodyn_ros.model.example_robots import example_urdf
    return example_urdf('panda')
