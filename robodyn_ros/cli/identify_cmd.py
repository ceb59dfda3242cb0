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

"""``robodyn identify friction ROBOT``: identify joint friction on a driver board."""

import json
import sys

from .args import int_at_least, output_file, port, positive_float
from ..errors import InputError

#: Link words of ``--transport`` (those of ``robodyn sim-board``) -> the host transport.
TRANSPORTS = {'pty': 'serial', 'udp': 'udp', 'serial': 'serial'}


def add_parser(sub):
    """
    Register the ``identify`` sub-command and its ``friction`` target.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('identify', help='identify model parameters on hardware',
                       description='Identification experiments on a driver board.')
    targets = p.add_subparsers(dest='target', metavar='TARGET')
    targets.required = True
    f = targets.add_parser(
        'friction', help='constant-velocity sweeps and a Coulomb/viscous/Stribeck fit',
        description='Move each joint at constant speeds in both directions on a real or '
                    'simulated board, fit Coulomb, viscous and Stribeck friction '
                    '(asymmetric when the data say so) by least squares and write a '
                    'friction YAML for the hardware_interface node (friction_params).')
    f.add_argument('robot', help='library robot, example robot or URDF/xacro (host model)')
    f.add_argument('--params', help='actuator/limit YAML merged onto the model')
    f.add_argument('--transport', choices=tuple(TRANSPORTS), default='pty',
                   help='link to the board, as robodyn sim-board names them: pty (a serial '
                        "device: a real board's /dev/ttyUSB0 or a simulated board's pty; "
                        "'serial' is accepted for it) or udp (default pty)")
    f.add_argument('--device', default='',
                   help='serial device or simulated board pty link (pty; required there)')
    f.add_argument('--baud-rate', type=int_at_least(1), default=1000000,
                   help='serial speed [bit/s] (pty; default 1000000)')
    f.add_argument('--address', default='127.0.0.1',
                   help='board address (udp; default 127.0.0.1)')
    f.add_argument('--port', type=port, default=5005, help='board port (udp; default 5005)')
    f.add_argument('--watchdog-period', type=positive_float, default=0.05,
                   help='board watchdog period [s] (default 0.05)')
    f.add_argument('--joints', nargs='+', default=(),
                   help="joints to identify, by name (default all the model's joints)")
    f.add_argument('--velocities', type=positive_float, nargs='+',
                   default=(0.01, 0.02, 0.05, 0.1, 0.2, 0.5),
                   help='sweep speeds, each > 0, swept in both directions [rad/s or m/s] '
                        '(default 0.01 0.02 0.05 0.1 0.2 0.5)')
    f.add_argument('--settle', type=positive_float, default=0.2,
                   help='settling time per leg [s] (default 0.2)')
    f.add_argument('--measure', type=positive_float, default=0.3,
                   help='measurement window [s] (default 0.3)')
    f.add_argument('--bandwidth', type=positive_float, default=4.0,
                   help='position loop bandwidth [Hz] (default 4)')
    f.add_argument('--output', '-o', default='friction.yaml',
                   help='friction YAML to write (default friction.yaml)')
    f.add_argument('--json', action='store_true', help='print the result as JSON')
    f.add_argument('--verbose', '-v', action='store_true', help='print every leg')
    f.set_defaults(run=run_friction)


def friction_document(model, data, fits):
    """
    Build the content of the friction YAML.

    Parameters
    ----------
    model : RobotModel
        Host model.
    data : SweepData
        The measurements.
    fits : dict
        Joint name to FrictionFit.

    Returns
    -------
    dict
        ``robot``, ``joints.<name>.friction`` (loadable by the
        ``friction_params`` node parameter) and ``identification`` (fit
        quality and the measured points).

    """
    joints = {name: {'friction': fit.params()} for name, fit in fits.items()}
    report = {}
    for name, fit in fits.items():
        v, tau = data.arrays(name)
        report[name] = {
            'rms_residual': fit.rms_residual, 'relative_residual': fit.relative_residual,
            'asymmetric': fit.asymmetric, 'stribeck': fit.stribeck, 'samples': fit.samples,
            'f_statistic': fit.f_statistic, 'velocities': [float(x) for x in v],
            'torques': [float(x) for x in tau]}
    return {'robot': model.name, 'joints': joints,
            'identification': {'method': 'constant-velocity sweeps; linear least squares '
                                         'with the Stribeck velocity by 1-D search',
                               'skipped': list(data.skipped), 'joints': report}}


def run_friction(args):
    """
    Execute ``robodyn identify friction``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success.

    """
    import yaml

    from ..hardware.board.driver import BoardDriver
    from ..friction.identification import fit_friction
    from ..friction.sweep import FrictionSweep, SweepSettings
    from ..hardware.settings import DriverSettings
    from ..hardware.board.transports import open_transport
    from ..model import load_robot
    output_file(args.output, '--output')
    model = load_robot(args.robot, params=args.params)
    try:
        transport = open_transport(TRANSPORTS[args.transport], args.device, args.baud_rate,
                                   args.address, args.port)
    except ValueError as exc:
        raise InputError('--transport', str(exc)) from None
    settings = SweepSettings(joints=tuple(args.joints), velocities=tuple(args.velocities),
                             settle=args.settle, measure=args.measure,
                             bandwidth=args.bandwidth)
    settings.check(model)
    driver = BoardDriver(model, transport, DriverSettings(watchdog_period=args.watchdog_period))
    log = (lambda text: print(text, file=sys.stderr)) if args.verbose else None
    driver.connect()
    try:
        data = FrictionSweep(driver, settings, log).run()
    finally:
        driver.close()
    fits = {name: fit_friction(*data.arrays(name))
            for name in (settings.joints or model.joint_names)}
    doc = friction_document(model, data, fits)
    with open(args.output, 'w', encoding='utf-8') as fh:
        fh.write('# Friction identified by robodyn identify friction; load it with the\n'
                 '# hardware_interface parameter friction_params.\n')
        yaml.safe_dump(doc, fh, sort_keys=False)
    if args.json:
        print(json.dumps({'output': args.output, 'joints': doc['joints'],
                          'identification': doc['identification']}, indent=2))
    else:
        for name, fit in fits.items():
            print(f'{name}: coulomb {fit.coulomb[0]:.4g}/{fit.coulomb[1]:.4g}, viscous '
                  f'{fit.viscous[0]:.4g}/{fit.viscous[1]:.4g}, static {fit.static[0]:.4g}/'
                  f'{fit.static[1]:.4g}, vs {fit.stribeck_velocity:.4g}; rms residual '
                  f'{fit.rms_residual:.3g} ({100 * fit.relative_residual:.2g} %)'
                  f'{", asymmetric" if fit.asymmetric else ""}')
        print(f'written: {args.output}')
    return 0
