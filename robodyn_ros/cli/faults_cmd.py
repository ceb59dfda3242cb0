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

"""``robodyn faults``: the safety fault campaign on the simulated robot."""


def add_parser(sub):
    """
    Register the ``faults`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    from .args import positive_float
    from ..demo.fault_cases_drives import ALL_CASE_NAMES as CASE_NAMES
    p = sub.add_parser(
        'faults', help='inject every failure of the safety table into the running graph',
        description='Start the simulated board (with its control channel), the hardware '
                    'interface, the planner and one controller as processes on loopback DDS; '
                    'hold a gravity-loaded pose; then, one case at a time, kill the '
                    'controller or the hardware interface, activate without a controller, '
                    'flood joint_commands and joint_states from a second publisher, lose '
                    'the board link in a motion, latch a board fault, send bad gains, damaged '
                    'and foreign UDP frames, start a second board on the same port and '
                    'abuse the control channel. Measures the true joint drift and speed '
                    'from the board and prints a table (case, reaction, time to the safe '
                    'state, drift, speed against the plan, pass/fail); writes faults.json. '
                    'Exit 0 when every case passes.')
    p.add_argument('--robot', default='puma560',
                   help='library robot, example robot or URDF/xacro (default puma560)')
    p.add_argument('--controller', default='computed_torque',
                   help='control law holding the arm (default computed_torque)')
    p.add_argument('--out', default='', help='output folder (default demo_output/<date-time>)')
    p.add_argument('--short', action='store_true',
                   help='shorter observation windows and a 1 s hold (the CI form)')
    p.add_argument('--rate', type=positive_float, default=None,
                   help='board and control rate [Hz] (default 500 on the board, 250 on CiA 402 '
                        'drives: 42 %% of a 1 Mbit/s bus for 6 drives; the campaign runs the '
                        'two-node graph, hardware_interface and controller over DDS)')
    p.add_argument('--cases', nargs='+', choices=CASE_NAMES, metavar='CASE',
                   help=f'run only these cases (default all: {", ".join(CASE_NAMES)})')
    p.add_argument('--hardware', choices=('board', 'cia402'), default='board',
                   help='simulated hardware: the driver board (default) or CiA 402 drives over '
                        "CAN in a network namespace of the campaign's own (needs root); the "
                        'drives add their own cases (EMCY, heartbeat loss, a refused mode)')
    p.add_argument('--domain-id', type=int, default=-1,
                   help='ROS_DOMAIN_ID of the graph (default: the environment, else one '
                        'derived from the process id)')
    p.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn faults``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 when every case passed, 1 otherwise.

    """
    from .args import control_rate, output_dir
    from ..demo.can_namespace import needs_namespace, rerun_in_namespace
    from ..demo.config import DemoConfig
    from ..demo.fault_campaign import run_campaign
    if args.out:
        output_dir(args.out, '--out')
    if needs_namespace(args.hardware):
        return rerun_in_namespace(args.argv)
    cfg = DemoConfig(hardware=args.hardware, robot=args.robot, controllers=[args.controller],
                     out=args.out,
                     rate=control_rate(args, 500.0),
                     domain_id=args.domain_id, payload=2.0)
    return run_campaign(cfg, short=args.short, names=args.cases)
