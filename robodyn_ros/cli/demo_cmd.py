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

"""``robodyn demo``: the simulated PUMA 560 end to end over DDS."""


def add_parser(sub):
    """
    Register the ``demo`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    from ..control.factory import LAWS
    p = sub.add_parser(
        'demo', help='run the simulated robot end to end (board, nodes, laws) over DDS',
        description='Start the simulated driver board (carrying a payload the model does '
                    'not know), the one-process control_loop (board, law and friction '
                    'compensation in one loop; --graph: hardware_interface and one '
                    'controller per law over DDS), parallel_dynamics and trajectory_planner '
                    'as separate processes on loopback DDS; run the same multi-waypoint goal '
                    'under each law; print the tracking-error table, the loop statistics and '
                    'the payload estimate; write plots, summary.json, report.txt and '
                    'recording.mcap to the output folder.')
    p.add_argument('--robot', default='puma560',
                   help='library robot, example robot or URDF/xacro (default puma560)')
    p.add_argument('--controller', dest='controllers', nargs='+', choices=LAWS,
                   metavar='LAW', default=['computed_torque', 'mbvsst'],
                   help='control laws, run in turn (default: computed_torque mbvsst; '
                        f'choices: {", ".join(LAWS)})')
    p.add_argument('--out', default='', help='output folder (default demo_output/<date-time>)')
    p.add_argument('--short', action='store_true',
                   help='one excursion instead of three (about half the time)')
    p.add_argument('--rate', type=float, default=None,
                   help='board and control rate [Hz] (default 1000 on the board, 250 on CiA 402 '
                        'drives: 42 %% of a 1 Mbit/s bus for 6 drives, where 1000 Hz would need '
                        '166 %%)')
    p.add_argument('--graph', action='store_true',
                   help='run the two-node graph (hardware_interface and one controller per '
                        'law over DDS) instead of the one-process control_loop')
    p.add_argument('--payload', type=float, default=2.0,
                   help='payload of the simulated robot, unknown to the model [kg] (default 2)')
    p.add_argument('--payload-com', type=float, nargs=3, default=[0.0, 0.0, 0.0],
                   metavar=('X', 'Y', 'Z'), help='its position in the end-effector frame [m]')
    p.add_argument('--soak', type=float, default=0.0, metavar='MINUTES',
                   help='instead of the demo: run the graph this long, repeating the goal, '
                        'and check memory, loop timing and board frames')
    p.add_argument('--load-friction', action='store_true',
                   help='give the simulated plant the load-dependent bearing and '
                        'transmission friction (Dhanaraj 1990, one of the source documents; '
                        'about 0.6 ms of plant computation per cycle: lower --rate)')
    p.add_argument('--board-port', type=int, default=0,
                   help='UDP port of the simulated board (default 0: any free port)')
    p.add_argument('--velocity-scale', type=float, default=0.6,
                   help="planner's factor on the velocity limits (default 0.6)")
    p.add_argument('--settle', type=float, default=1.0,
                   help='time recorded after each motion [s] (default 1)')
    p.add_argument('--start-timeout', type=float, default=60.0,
                   help='longest wait for the parts to come up [s] (default 60)')
    p.add_argument('--hardware', choices=('board', 'cia402'), default='board',
                   help='simulated hardware: the driver board over UDP (default), or one '
                        'CiA 402 drive per joint over CAN (udp_multicast inside a network '
                        'namespace the demo creates; needs root)')
    p.add_argument('--domain-id', type=int, default=-1,
                   help='ROS_DOMAIN_ID of the graph (default: the environment, else one '
                        'derived from the process id)')
    p.set_defaults(run=run)


def run(args):
    """
    Execute ``robodyn demo``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success, 1 when a part failed.

    """
    from .args import control_rate, output_dir
    from ..demo.can_namespace import needs_namespace, rerun_in_namespace
    from ..demo.config import DemoConfig
    from ..demo.session import run_demo
    if args.out:
        output_dir(args.out, '--out')
    if needs_namespace(args.hardware):
        return rerun_in_namespace(args.argv)
    cfg = DemoConfig(hardware=args.hardware, robot=args.robot,
                     controllers=list(args.controllers), out=args.out,
                     short=args.short,
                     rate=control_rate(args, 1000.0),
                     payload=args.payload,
                     payload_com=list(args.payload_com), soak=args.soak,
                     board_port=args.board_port, load_friction=args.load_friction,
                     velocity_scale=args.velocity_scale,
                     settle=args.settle, start_timeout=args.start_timeout,
                     domain_id=args.domain_id, mode='graph' if args.graph else 'one-process')
    if cfg.short and args.settle == 1.0:
        cfg.settle = 0.5
    return run_demo(cfg)
