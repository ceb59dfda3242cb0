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

"""``robodyn sim-drive ROBOT``: run a simulated set of CiA 402 drives, one per joint."""

import json
import signal
import sys

from .sim_board_cmd import add_plant_options, board_config
from ..errors import InputError


def add_parser(sub):
    """
    Register the ``sim-drive`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser(
        'sim-drive', help='run simulated CANopen CiA 402 drives, one per joint',
        description='Serve one CiA 402 drive per joint (cyclic synchronous torque; a canopen '
                    "local node built from the package's EDS each) on a CAN bus, around the "
                    'same plant, friction, brakes and fault injection as sim-board. '
                    'udp_multicast runs only inside a network namespace whose only interface '
                    'is loopback (e.g. ip netns exec; see docs/drives.md). Prints one JSON '
                    'line when ready. Options may also come from --config (YAML).')
    p.add_argument('robot', nargs='?', default=None,
                   help='library robot, example robot or URDF/xacro (default puma560)')
    p.add_argument('--config', metavar='YAML', help='drive set options file')
    p.add_argument('--params', help='true actuator/friction/limit YAML of the plant')
    p.add_argument('--interface', choices=('udp_multicast', 'virtual'),
                   help='CAN bus (default udp_multicast)')
    p.add_argument('--channel', help="multicast group (default python-can's 239.74.163.2)")
    p.add_argument('--can-port', type=int, help='UDP port of udp_multicast (default 43113)')
    p.add_argument('--bitrate', type=int, help='bitrate the frames are paced at [bit/s] '
                   '(default 1000000)')
    p.add_argument('--node-ids', type=int, nargs='+',
                   help="node id of each joint's drive (default 1 2 ... n)")
    p.add_argument('--quick-stop-time', type=float,
                   help='time in Quick stop active before Switch on disabled [s]')
    p.add_argument('--brake-delay', type=float,
                   help='time from Operation enabled to the brake release [s]')
    add_plant_options(p)
    p.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn sim-drive``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 after a clean stop.

    """
    from ..sim.board.faults import FaultSpecError
    from ..sim.cia402.config import SimDriveConfig
    from ..sim.cia402.drive_set import build_drive_set
    config = board_config(args, SimDriveConfig)
    try:
        drives = build_drive_set(config)
    except FaultSpecError as exc:
        raise InputError('--inject', str(exc)) from None
    for name in drives.axes.axes.unit_torque:
        print(f'robodyn sim-drive: joint {name!r} has no torque constant; driven as a unit '
              'torque axis (1 N m/A at the joint)', file=sys.stderr)

    def stop(signum, frame):
        drives.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def ready(info):
        print(json.dumps(info), flush=True)

    drives.serve(on_ready=ready)
    return 0
