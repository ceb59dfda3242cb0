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
``robodyn warm``: compile every cache ahead, so that no later command waits.

Five caches fill on first use, each once per machine:

* the customized C dynamics kernels of each robot (about 1 s per robot),
  cached in ``$ROBODYN_CACHE_DIR`` or ``~/.cache/robodyn_ros/kernels``;
* the numba-compiled core of the time-optimal planner (numba's on-disk
  cache next to the package);
* the control laws' compiled steps, when ``robodyn_ros.control`` offers a
  ``warm_up`` function (the first configure of an MBVSST controller pays
  for it otherwise);
* the simulated plant's semi-implicit step (the first simulated board pays
  for it otherwise);
* the hardware interface's output stage (friction compensation, current
  pipeline, state report decode and set-currents encode in loop form; its
  first configure pays for it otherwise).

``scripts/setup_env.sh`` runs it once after installing. Each step prints a
line when it starts and when it is done, with its duration.
"""

import sys
import time

#: Robots whose kernels are compiled: the library and the example robots offered.
ROBOTS = ('puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford', 'ur5', 'panda')


def add_parser(sub):
    """
    Register the ``warm`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('warm', help='compile the dynamics kernels and numba caches ahead',
                       description='Compile the C dynamics kernels of the library and example '
                                   'robots, the numba core of the time-optimal planner, the '
                                   "control laws' compiled steps, the simulated plant's step and "
                                   "the output stage's loop forms, so that no later command "
                                   'waits for a one-time compile. Safe to run again (then '
                                   'about a second). scripts/setup_env.sh runs it once.')
    p.add_argument('--robots', nargs='+', metavar='ROBOT', default=list(ROBOTS),
                   help=f'robots whose kernels to compile (default: {" ".join(ROBOTS)})')
    p.set_defaults(run=run)


def _step(label, func):
    print(f'robodyn warm: {label} ...', file=sys.stderr, flush=True)
    began = time.perf_counter()
    detail = func()
    took = time.perf_counter() - began
    print(f'robodyn warm: {label}: {detail} ({took:.1f} s)', file=sys.stderr, flush=True)


def _kernels(robot):
    from ..dynamics.codegen import kernels
    from ..friction.models import without_friction
    from ..model import load_robot
    model = load_robot(robot)
    k = kernels(model)
    kernels(without_friction(model))     # the one-process loop's law model
    return ('compiled C (with and without friction)' if k.backend == 'c'
            else f'{k.backend} (no C compiler)')


def _plots():
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import font_manager
    return f'{len(font_manager.fontManager.ttflist)} fonts listed'


def _planner():
    import numpy as np

    from ..model import load_robot
    from ..planning import PlanningLimits
    from ..planning.efforts import ModelEffortProvider
    from ..planning.planner import Planner
    from ..planning.planner_config import PlannerConfig
    from ..planning.reachability import COMPILED
    model = load_robot('puma560')
    planner = Planner(PlanningLimits.from_model(model),
                      PlannerConfig(time_parameterization='optimal_smooth'),
                      ModelEffortProvider(model))
    planner.plan(np.zeros(model.n), [np.full(model.n, 0.3)])
    return 'numba core compiled' if COMPILED else 'numba not installed (plain Python)'


def _control(robot):
    from ..control.jit import AVAILABLE
    from ..control.warm import warm_law_models
    from ..model import load_robot
    laws = warm_law_models(load_robot(robot))
    how = 'numba steps compiled' if AVAILABLE else 'numba not installed (plain Python)'
    return f'{how}: {", ".join(laws)}'


def _board():
    from ..sim.board.frame_kernel import COMPILED as FRAMES
    from ..sim.board.cycle_kernel import COMPILED as CYCLE
    from ..sim.plant_step import load
    loaded = [load(), FRAMES.load(), CYCLE.load()]    # each, even if one fails
    return ('numba plant step, cycle and frames compiled' if all(loaded)
            else 'numba not installed (NumPy form)')


def _outputs():
    from ..hardware.interface import load_compiled
    return 'numba loop forms compiled' if load_compiled() else 'numba not installed (NumPy form)'


def run(args):
    """
    Execute ``robodyn warm``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 (a robot that cannot be loaded is an error, exit 2).

    """
    from ..model import load_robot
    for robot in args.robots:
        load_robot(robot)  # unknown names fail before any compile
    for robot in args.robots:
        _step(f'dynamics kernels of {robot}', lambda robot=robot: _kernels(robot))
    _step('time-optimal planner core', _planner)
    _step('control laws', lambda: _control(args.robots[0]))
    _step('simulated board (plant step, cycle, frames)', _board)
    _step('output stage', _outputs)
    _step('plot fonts (matplotlib)', _plots)
    return 0
