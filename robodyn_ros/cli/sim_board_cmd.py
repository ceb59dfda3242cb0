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

"""``robodyn sim-board ROBOT``: run a simulated motor driver board."""

from dataclasses import fields
import json
import signal
import socket
import sys

from .args import int_between, nonnegative_float, port, positive_float
from ..errors import InputError


def add_plant_options(p):
    """
    Add the options of the simulated plant (shared by ``sim-board`` and ``sim-drive``).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The sub-command's parser.

    """
    p.add_argument('--control-port', type=int_between(-1, 65535),
                   help='JSON control channel port on 127.0.0.1 (default 0: any free port; '
                        '-1: none)')
    p.add_argument('--rate', type=positive_float,
                   help='cycle rate [Hz], 10-20000 (default 1000)')
    p.add_argument('--encoder-counts', type=int, nargs='+', help='counts per motor revolution')
    p.add_argument('--max-current', type=float, nargs='+', help='amplifier ratings [A]')
    p.add_argument('--current-time-constant', type=float, help='current loop [s]')
    p.add_argument('--efficiency', type=float, nargs='+', help='true transmission efficiency')
    p.add_argument('--backlash', type=float, nargs='+', help='backlash width [rad]')
    p.add_argument('--backlash-speed', type=float, help='gap crossing speed [rad/s]')
    p.add_argument('--encoder-noise', type=float, help='encoder noise [counts]')
    p.add_argument('--current-noise', type=float, help='current sensor noise [A]')
    p.add_argument('--no-load-friction', dest='load_friction', action='store_const',
                   const=False, help='drop the load-dependent bearing and transmission '
                                     "friction (Dhanaraj 1990's model; faster)")
    p.add_argument('--no-brakes', dest='brakes', action='store_const', const=False,
                   help='let the joints move while the outputs are off')
    p.add_argument('--friction-smoothing', type=float,
                   help='lower bound of the plant friction zero-velocity band [rad/s]')
    p.add_argument('--q0', type=float, nargs='+', help='initial positions [rad or m]')
    p.add_argument('--seed', type=int, help='random seed')
    p.add_argument('--firmware', help='reported firmware version (default 1.0.0)')
    p.add_argument('--over-current-factor', type=float, help='trip level / limit')
    p.add_argument('--inject', dest='faults', action='append', metavar='FAULT[:k=v,...]',
                   help='fault active at start, e.g. drop:direction=rx,rate=0.5 (repeatable)')
    p.add_argument('--rt-priority', type=int,
                   help="SCHED_FIFO priority 1-99 of the simulator's loop (default 0: "
                        'normal; needs rtprio, see docs/realtime.md)')
    p.add_argument('--max-runtime', type=nonnegative_float,
                   help='exit after this many seconds (default 0: run until stopped)')
    p.add_argument('--payload', dest='payload_mass', type=float, metavar='KG',
                   help='point mass carried by the plant, unknown to the host [kg]')
    p.add_argument('--payload-com', dest='payload_com', type=float, nargs=3,
                   metavar=('X', 'Y', 'Z'), help='payload position in its frame [m]')
    p.add_argument('--payload-frame', dest='payload_frame',
                   help='frame carrying the payload (default: the end effector)')


def add_parser(sub):
    """
    Register the ``sim-board`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser(
        'sim-board', help='run a simulated motor driver board (pty or UDP)',
        description='Serve the driver-board protocol on a pseudo-terminal or a UDP socket, '
                    'with a plant integrated by Pinocchio forward dynamics and the true '
                    'friction of the given robot and parameters. Prints one JSON line with '
                    'the device or port when ready. Options may also come from --config '
                    '(YAML with the same names, underscores for dashes).')
    p.add_argument('robot', nargs='?', default=None,
                   help='library robot, example robot or URDF/xacro (default puma560)')
    p.add_argument('--config', metavar='YAML', help='board options file')
    p.add_argument('--params', help='true actuator/friction/limit YAML of the plant')
    p.add_argument('--transport', choices=('pty', 'udp'),
                   help='link type: pty (a pseudo-terminal, as a serial device) or udp '
                        '(default pty)')
    p.add_argument('--link', help='symbolic link to the pty slave (updated on reconnect)')
    p.add_argument('--address', help='UDP address to bind, one of this machine (default '
                                     '127.0.0.1)')
    p.add_argument('--port', type=port, help='UDP port, 0-65535 (default 0: any free port)')
    add_plant_options(p)
    p.add_argument('--inner-rate', type=positive_float, metavar='HZ',
                   help='impedance-mode PD and plant sub-step rate [Hz], 10-100000 (default '
                        '4000; a whole number of sub-steps per cycle, rounded up)')
    p.add_argument('--lockstep', action='store_const', const=True,
                   help='while enabled, advance a cycle as soon as the host answers (not '
                        'real time; deterministic host latency)')
    p.add_argument('--lockstep-timeout', type=float,
                   help='longest wait for the host in lockstep [s] (default 0.1)')
    p.set_defaults(run=run)


def board_config(args, cls=None):
    """
    Merge the ``--config`` file and the command-line options.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    cls : type, optional
        The options' class (default SimBoardConfig; SimDriveConfig for ``sim-drive``).

    Returns
    -------
    SimBoardConfig
        The options (checked).

    Raises
    ------
    InputError
        On an unreadable file, unknown keys or bad values.

    """
    from ..sim.board.config import SimBoardConfig
    cls = cls or SimBoardConfig
    names = {f.name for f in fields(cls)}
    values = {}
    if args.config:
        import yaml
        try:
            with open(args.config, encoding='utf-8') as fh:
                data = yaml.safe_load(fh) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise InputError('--config', f'cannot read {args.config}: {exc}') from None
        if not isinstance(data, dict):
            raise InputError('--config', f'{args.config}: top level must be a mapping')
        unknown = sorted(set(data) - names)
        if unknown:
            raise InputError('--config', f'{args.config}: unknown keys {", ".join(unknown)}')
        values.update(data)
    for name in names:
        value = getattr(args, name, None)
        if value is not None:
            values[name] = value
    for name in ('encoder_counts', 'max_current', 'efficiency', 'backlash', 'q0', 'faults',
                 'payload_com', 'node_ids'):
        if name in values and not isinstance(values[name], (list, tuple)):
            values[name] = [values[name]]
    try:
        config = cls(**values)
    except TypeError as exc:
        raise InputError('--config', str(exc)) from None
    config.check()
    return config


def _check_address(address):
    """Refuse, before the plant is built, an address this machine cannot bind."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.bind((address, 0))
    except (OSError, UnicodeError, OverflowError) as exc:
        reason = getattr(exc, 'strerror', None) or str(exc)
        raise InputError('--address', f'cannot bind {address!r}: {reason} (give an address '
                                      'of this machine, e.g. 127.0.0.1 or 0.0.0.0)') from None


def run(args):
    """
    Execute ``robodyn sim-board``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 after a clean stop.

    """
    from ..sim.board.simulator import build_board
    from ..sim.board.faults import FaultSpecError
    config = board_config(args)
    if config.transport == 'udp':
        _check_address(config.address)
    try:
        board = build_board(config)
    except FaultSpecError as exc:
        raise InputError('--inject', str(exc)) from None
    for name in board.axes.axes.unit_torque:
        print(f'robodyn sim-board: joint {name!r} has no torque constant; driven as a unit '
              'torque axis (1 N m/A at the joint)', file=sys.stderr)

    def stop(signum, frame):
        board.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def ready(info):
        for line in info['realtime']:
            if 'not' in line.split():        # asked for and refused: say so
                print(f'robodyn sim-board: {line}', file=sys.stderr, flush=True)
        print(json.dumps(info), flush=True)

    board.serve(on_ready=ready)
    return 0
