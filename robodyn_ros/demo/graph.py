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
The parts of the demo's graph: command lines and start-up order.

Every part is a console program of this package run by the current Python
(``python -m``), so the demo works from a source tree, a virtual
environment and a ROS 2 install alike.
"""

import os
import sys


#: Node names of the graph.
HARDWARE = 'hardware_interface'
LOOP = 'control_loop'
PLANNER = 'trajectory_planner'
DYNAMICS = 'parallel_dynamics'
BOARD = 'sim_board'
DRIVES = 'sim_drive'
#: SCHED_FIFO priorities: the simulated board or drives keep their cycle as hardware does
#: on its own timer, and the host's loop runs on time (both sleep between cycles; where
#: the priority is not allowed, normal scheduling goes on and the logs say so).
SIM_RT_PRIORITY = 30
HOST_RT_PRIORITY = 20


def controller_name(law):
    """Return the node name of the controller running ``law`` (two-node graph)."""
    return f'controller_{law}'


def law_node(cfg, law):
    """Return the node that runs ``law``: the one-process loop, or its controller."""
    return LOOP if cfg.mode == 'one-process' else controller_name(law)


def hardware_node(cfg):
    """Return the node that drives the board."""
    return LOOP if cfg.mode == 'one-process' else HARDWARE


def _node(module, name, params, python):
    argv = [python, '-m', f'robodyn_ros.nodes.{module}', '--ros-args', '-r',
            f'__node:={name}']
    for key, value in params.items():
        if isinstance(value, bool):
            value = 'true' if value else 'false'
        argv += ['-p', f'{key}:={value}']
    return argv


def robot_argument(robot):
    """Return the robot as the parts need it: a name, or an absolute path."""
    return os.path.abspath(robot) if os.path.exists(robot) else robot


def plant_part(cfg):
    """Return the name of the simulated hardware's part: the board or the drive set."""
    return DRIVES if cfg.hardware == 'cia402' else BOARD


def drive_command(cfg, python=sys.executable):
    """
    Return the simulated CiA 402 drive set's command line.

    Parameters
    ----------
    cfg : DemoConfig
        The options.
    python : str
        Interpreter.

    Returns
    -------
    list of str
        ``robodyn sim-drive`` on ``udp_multicast`` (the demo runs in its own
        network namespace) with the payload; the drives' cycle at the rate.

    """
    argv = [python, '-m', 'robodyn_ros.cli.main', 'sim-drive', robot_argument(cfg.robot),
            '--interface', 'udp_multicast', '--rate', f'{cfg.rate:g}',
            '--control-port', '0' if cfg.board_control else '-1',
            '--rt-priority', str(SIM_RT_PRIORITY)]
    if not cfg.load_friction:
        argv.append('--no-load-friction')
    if cfg.payload > 0.0:
        argv += ['--payload', f'{cfg.payload:g}', '--payload-com',
                 *[f'{c:g}' for c in cfg.payload_com]]
    return argv


def plant_text(cfg):
    """Describe the simulated hardware for the demo's progress line (str)."""
    where = (f'CiA 402 on CAN: udp_multicast in network namespace '
             f'{os.environ.get("ROBODYN_CAN_NAMESPACE", "?")}' if cfg.hardware == 'cia402'
             else 'UDP 127.0.0.1')
    return (f'{"drives" if cfg.hardware == "cia402" else "board"} ({cfg.robot}, '
            f'{cfg.rate:g} Hz, {where}, payload {cfg.payload:g} kg unknown to the model)')


def plant_command(cfg, python=sys.executable):
    """Return the simulated hardware's command line (board or drive set)."""
    return drive_command(cfg, python) if cfg.hardware == 'cia402' else board_command(cfg, python)


def board_command(cfg, python=sys.executable):
    """
    Return the simulated board's command line.

    Parameters
    ----------
    cfg : DemoConfig
        The options.
    python : str
        Interpreter.

    Returns
    -------
    list of str
        ``robodyn sim-board`` on UDP 127.0.0.1 with the payload.

    """
    argv = [python, '-m', 'robodyn_ros.cli.main', 'sim-board', robot_argument(cfg.robot),
            '--transport', 'udp', '--address', '127.0.0.1', '--port', str(cfg.board_port),
            '--rate', f'{cfg.rate:g}', '--control-port', '0' if cfg.board_control else '-1',
            '--rt-priority', str(SIM_RT_PRIORITY)]
    if not cfg.load_friction:
        argv.append('--no-load-friction')
    if cfg.payload > 0.0:
        argv += ['--payload', f'{cfg.payload:g}', '--payload-com',
                 *[f'{c:g}' for c in cfg.payload_com]]
    return argv + [str(a) for a in cfg.board_arguments]


def gravity_joints(model, share=0.3):
    """
    Return the joints whose gravity torque a payload changes most.

    Parameters
    ----------
    model : RobotModel
        The robot (payload at its end effector).
    share : float
        Keep joints with at least this share of the largest sensitivity.

    Returns
    -------
    list of int
        Joint indices (0-based), for the payload estimator: a payload
        shows in their torque even at rest, unlike the waist's
        (:func:`~robodyn_ros.control.payload_model.estimating_joints`, which
        the simulated demo loop uses too).

    """
    from ..control.payload_model import estimating_joints
    return estimating_joints(model, share=share)


def node_commands(cfg, port, log_dir, python=sys.executable, model=None):
    """
    Return the ROS nodes' command lines, in start-up order.

    Parameters
    ----------
    cfg : DemoConfig
        The options.
    port : int
        The board's UDP port, or the drive set's ``udp_multicast`` port.
    log_dir : str
        Folder for the controllers' timing logs.
    python : str
        Interpreter.
    model : RobotModel, optional
        The robot, to choose the payload estimator's joints.

    Returns
    -------
    list of tuple
        ``(name, argv)``.

    """
    robot = robot_argument(cfg.robot)
    estimator = ','.join(str(j) for j in gravity_joints(model)) if model is not None else ''
    if cfg.hardware == 'cia402':
        # The drives' RPDO timeout and heartbeat consumer: generous, as the graph shares two
        # cores with everything else here and a Python process can stall for a few hundred
        # ms (a trip ends the run: outputs off until a reset). Real drives: tens of ms.
        # The host's I/O thread (graph or one-process loop) at a real-time priority too.
        board = {'robot': robot, 'backend': 'cia402', 'can_interface': 'udp_multicast',
                 'can_port': int(port), 'sync_period': 1.0 / cfg.rate,
                 'watchdog_period': 0.5, 'heartbeat_timeout': 1.0,
                 'rt_priority': HOST_RT_PRIORITY, **cfg.hardware_parameters}
    else:
        board = {'robot': robot, 'transport': 'udp', 'address': '127.0.0.1', 'port': int(port),
                 # The board's watchdog: 0.1 s, as the graph shares two cores with everything
                 # else here (a trip ends the run: the outputs then stay off until a reset).
                 'watchdog_period': 0.1,
                 # Real-time priorities: the board above the host's loop; in the graph the
                 # controller's loop as the interface's I/O (a board and an interface above
                 # a normal-priority controller starve it on a busy machine).
                 'rt_priority': HOST_RT_PRIORITY, **cfg.hardware_parameters}
    law_params = {'model_friction': False,  # the board loop compensates friction
                  **({'estimator_joints': f'[{estimator}]'} if estimator else {})}
    others = [
        (DYNAMICS, _node('parallel_dynamics_node', DYNAMICS, {'robot': robot}, python)),
        (PLANNER, _node('trajectory_planner_node', PLANNER,
                        {'robot': robot, 'velocity_scale': cfg.velocity_scale}, python)),
    ]
    if cfg.mode == 'one-process':
        if 'backend' in board:          # the loop's law has a dynamics backend of its own
            board['hardware'] = board.pop('backend')
        return [(LOOP, _node('control_loop_node', LOOP, {
            **board, 'law': cfg.controllers[0], 'autostart': False,
            'timing_log': os.path.join(log_dir, f'{LOOP}_timing.json'), **law_params},
            python))] + others
    parts = [(HARDWARE, _node('hardware_interface_node', HARDWARE, board, python))] + others
    for law in cfg.controllers:
        name = controller_name(law)
        parts.append((name, _node('controller_node', name, {
            'robot': robot, 'law': law, 'rate': float(cfg.rate), 'autostart': False,
            'rt_priority': HOST_RT_PRIORITY,
            'timing_log': os.path.join(log_dir, f'{name}_timing.json'), **law_params},
            python)))
    return parts
