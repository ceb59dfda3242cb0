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
The demo's control loop without real time: deterministic, on the simulated board's mechanics.

``robodyn demo`` runs each law in real time against ``robodyn sim-board``;
on a loaded machine its host misses board reports and its numbers change
from run to run. :class:`DemoWorld` builds the same loop for
:func:`~robodyn_ros.sim.runner.simulate`, one board cycle per control step:

* **plant**: the simulated board's axes (:class:`~.board.axes.SimAxes`:
  first-order current loop, the plant's friction smoothed over 0.002 rad/s,
  one semi-implicit step per cycle, encoders of 4096 counts per motor
  revolution), carrying a payload at the end effector that the model does
  not know;
* **host** (:class:`HostLoop`): the driver's velocity filter on the encoder
  positions (30 Hz, damping 1), the law on the model without friction
  (``model_friction: false``) and the hardware interface's friction
  compensation (0.02 rad/s band) added to the law's torque;
* **goal**: the demo's waypoints (:func:`~robodyn_ros.demo.goal.demo_waypoints`)
  planned by the package planner as the planner node plans them (spline,
  optimal timing, velocity scale 0.6, 10 ms samples), sampled by the
  controller's :class:`~robodyn_ros.control.reference.ReferenceSampler`;
* **laws** as the demo graph configures them (the estimator on the
  gravity-loaded joints, :func:`~robodyn_ros.demo.graph.gravity_joints`).

A share of missed board reports (``missed``) imitates a loaded host: the
law then runs on a random subset of the cycles (the newest report each
time, the driver's filter with the true time step) and the board holds the
last command in between.
"""

from dataclasses import dataclass, field

import numpy as np

from .board.axes import PlantSettings, SensorSettings, SimAxes, without_load_friction
from .runner import Sensor, simulate
from ..control.base import JointReference
from ..control.factory import make_controller
from ..control.filters import StateVariableFilter
from ..control.reference import ReferenceSampler
from ..errors import InputError
from ..friction.compensation import FrictionCompensator
from ..friction.models import without_friction
from ..model import load_robot


@dataclass(frozen=True)
class DemoLoop:
    """
    The demo's loop, as :func:`robodyn_ros.demo.session.run_demo` sets it up by default.

    Attributes
    ----------
    robot : str
        Library robot.
    rate : float
        Board and control rate [Hz].
    payload : float
        Payload at the end effector, unknown to the model [kg].
    payload_com : tuple of float
        Its centre of mass in the end-effector frame [m].
    short : bool
        One excursion instead of the demo's three.
    velocity_scale : float
        The planner's factor on the velocity limits.
    settle : float
        Time after the plan's end in the error statistics [s] (the demo's
        ``settle``).
    friction_band : float
        Zero-velocity band of the host's friction compensation [rad/s].
    velocity_bandwidth, velocity_damping : float
        The driver's velocity filter [Hz, -].
    plant : PlantSettings
        The board's current loop, friction smoothing and brakes.
    sensors : SensorSettings
        The board's encoders.
    missed : float
        Share of the board's reports the law misses, in [0, 1).
    seed : int
        Seed of the missed reports.

    """

    robot: str = 'puma560'
    rate: float = 1000.0
    payload: float = 2.0
    payload_com: tuple = (0.0, 0.0, 0.0)
    short: bool = False
    velocity_scale: float = 0.6
    settle: float = 1.0
    friction_band: float = 0.02
    velocity_bandwidth: float = 30.0
    velocity_damping: float = 1.0
    plant: PlantSettings = field(default_factory=PlantSettings)
    sensors: SensorSettings = field(default_factory=SensorSettings)
    missed: float = 0.0
    seed: int = 1

    def __post_init__(self):
        if not 0.0 <= self.missed < 1.0:
            raise InputError('missed', f'must be in [0, 1), got {self.missed}')
        if not self.rate > 0.0:
            raise InputError('rate', f'must be > 0 Hz, got {self.rate}')


class BoardMechanics:
    """
    The simulated board's axes as a plant of :func:`~.runner.simulate`.

    Torque in, through the current loop (``tau / torque_per_amp`` is the
    current set-point), one board cycle per control period.

    Parameters
    ----------
    model : RobotModel
        The true model (payload included).
    rate : float
        Board rate [Hz].
    plant : PlantSettings
        Current loop, friction smoothing.
    sensors : SensorSettings
        Encoders.
    q0 : array_like
        Initial positions [rad or m].

    """

    def __init__(self, model, rate, plant, sensors, q0):
        self.model = model
        self.axes = SimAxes(model, 1.0 / rate, plant, sensors, q0)
        self._per_amp = self.axes.axes.torque_per_amp

    @property
    def q(self):
        """Give the true positions, (n,) [rad or m]."""
        return self.axes.q

    @property
    def qd(self):
        """Give the true velocities, (n,) [rad/s or m/s]."""
        return self.axes.qd

    def step(self, tau, duration):
        """Run one board cycle with the current set-points for ``tau`` (n,) [N m or N]."""
        self.axes.step(np.asarray(tau, dtype=float) / self._per_amp, True)


class HostLoop:
    """
    The host side of the demo's loop around a law: velocity filter, law, friction compensation.

    Parameters
    ----------
    controller : Controller
        The law (on the model without friction).
    friction_model : RobotModel
        The model whose friction the host compensates.
    band : float
        Zero-velocity band of the compensation [rad/s].
    bandwidth, damping : float
        The driver's velocity filter [Hz, -].
    missed : float
        Share of the reports the law misses (the last command is held).
    seed : int
        Seed of the missed reports.

    """

    def __init__(self, controller, friction_model, band=0.02, bandwidth=30.0, damping=1.0,
                 missed=0.0, seed=1):
        self.controller = controller
        self.period = controller.period
        self.n = controller.n
        self.law = controller.law
        self.torque_limit = controller.torque_limit
        self.compensator = FrictionCompensator(friction_model, band)
        self.filter = StateVariableFilter.velocity_estimator(controller.n, bandwidth, damping)
        self.missed = float(missed)
        self._rng = np.random.default_rng(seed)
        self._held = None
        self._elapsed = 0.0
        #: Reports the law ran on, and those it missed.
        self.ran = self.skipped = 0

    def step(self, t, q, qd, reference):
        """Run the host for one board report; return ``(tau, status)`` as a law does."""
        self._elapsed += self.period
        if self._held is not None and self.missed and self._rng.random() < self.missed:
            self.skipped += 1
            return self._held
        dt = self._elapsed if self.ran else 0.0
        _, velocity, _ = self.filter.update(q, dt)
        self._elapsed = 0.0
        self.ran += 1
        tau, status = self.controller.step(t, q, velocity, reference)
        self._held = (tau + self.compensator.torque(q, velocity), status)
        return self._held

    def fault(self, reason):
        """Pass a fault to the law (zero torque)."""
        return self.controller.fault(reason)

    def estimates(self):
        """Return what the law estimates now (dict)."""
        return self.controller.estimates()


def demo_plan(model, home, velocity_scale=0.6, short=False):
    """
    Plan the demo's goal as the planner node does with its defaults.

    Parameters
    ----------
    model : RobotModel
        The robot (its limits; efforts with friction, no payload).
    home : array_like
        Start and end configuration [rad or m].
    velocity_scale : float
        Factor on the velocity limits (the demo's 0.6).
    short : bool
        One excursion.

    Returns
    -------
    Plan
        The planned motion and its 10 ms samples.

    """
    from ..demo.goal import demo_waypoints
    from ..planning.efforts import ModelEffortProvider, Payload
    from ..planning.limits import estimate_acceleration_limits, PlanningLimits
    from ..planning.planner import Planner, PlannerConfig
    names = model.joint_names
    acc = np.asarray(model.acceleration_limits, dtype=float)
    if not np.all(np.isfinite(acc)):
        acc = np.where(np.isfinite(acc), acc, estimate_acceleration_limits(model, names))
    limits = PlanningLimits.from_model(model, names, velocity=None, acceleration=acc,
                                       jerk=None, effort=None, velocity_scale=velocity_scale,
                                       acceleration_scale=1.0)
    config = PlannerConfig(profile='spline', time_scaling=True, effort_reserve=0.0,
                           sample_period=0.01, compute_efforts=True,
                           time_parameterization='optimal')
    provider = ModelEffortProvider(model, names, Payload(0.0, (0.0, 0.0, 0.0), None, None),
                                   friction=True)
    return Planner(limits, config, provider).plan(home, demo_waypoints(model, home, short))


@dataclass(frozen=True)
class LawFigures:
    """
    What one law did in the demo's loop.

    Attributes
    ----------
    label : str
        Name of the run.
    rms, max_abs : numpy.ndarray
        Tracking error per joint over the plan and the settling time [deg].
    payload_moving : float
        Median payload estimate from 0.5 s after the start to the plan's end
        [kg] (NaN without an estimator; the demo's ``payload``).
    payload_end : float
        Estimate at the plan's end [kg].
    payload_rest : float
        Estimate at the end of the run, at rest [kg].
    frozen_rest : bool
        Whether the estimate was held (not exciting) at the end of the run.
    frozen_moving : float
        Share of the motion during which the estimate was held.
    missed : int
        Reports the law missed.

    """

    label: str
    rms: np.ndarray
    max_abs: np.ndarray
    payload_moving: float = float('nan')
    payload_end: float = float('nan')
    payload_rest: float = float('nan')
    frozen_rest: bool = False
    frozen_moving: float = 0.0
    missed: int = 0


class DemoWorld:
    """
    The demo's robot, payload, goal and host, ready to run laws deterministically.

    Parameters
    ----------
    setup : DemoLoop
        The loop's settings.

    Attributes
    ----------
    model : RobotModel
        The robot as the nodes load it.
    law_model : RobotModel
        The laws' model (friction removed: the host compensates it).
    truth : RobotModel
        The board's plant: no load-dependent friction, the payload.
    plan : Plan
        The planned goal.
    estimator_joints : list of int
        The demo graph's estimating joints.

    """

    def __init__(self, setup=DemoLoop()):
        from ..demo.graph import gravity_joints
        self.setup = s = setup
        self.model = load_robot(s.robot)
        self.law_model = without_friction(self.model)
        self.truth = without_load_friction(self.model).with_payload(
            s.payload, s.payload_com, frame=self.model.end_effector)
        self.home = self.model.home_configuration()
        self.plan = demo_plan(self.model, self.home, s.velocity_scale, s.short)
        p = self.plan
        self._sampler = ReferenceSampler(p.times, p.positions, p.velocities, p.accelerations)
        self.estimator_joints = gravity_joints(self.model)
        gear = np.abs([j.actuator.gear_ratio for j in self.model.joints])
        counts = np.broadcast_to(np.asarray(s.sensors.encoder_counts), (self.model.n,))
        self.resolution = 2.0 * np.pi / (counts * gear)

    @property
    def duration(self):
        """Give the plan's duration [s]."""
        return float(self.plan.duration)

    def reference(self, t):
        """Give the desired state at ``t`` [s] (the plan, then its end at rest)."""
        return JointReference(*self._sampler.sample(t))

    def controller(self, law, options=None):
        """
        Build a law as the demo graph does: the frictionless model, the demo's options.

        Parameters
        ----------
        law : str
            Law name.
        options : dict, optional
            Flat options (``estimator_joints`` defaults to the demo's).

        Returns
        -------
        Controller
            The law.

        """
        opts = dict(options or {})
        from ..control.factory import law_class
        if 'estimator_joints' in law_class(law).option_names():
            opts.setdefault('estimator_joints', self.estimator_joints)
        return make_controller(law, self.law_model, 1.0 / self.setup.rate, opts)

    def run(self, controller, label, rest=0.0, missed=None):
        """
        Run a law over the goal, the settling time and ``rest`` more seconds.

        Parameters
        ----------
        controller : Controller
            The law (period ``1 / rate``).
        label : str
            Name of the run.
        rest : float
            Extra time at rest after the settling time [s].
        missed : float, optional
            Share of missed reports (default the setup's).

        Returns
        -------
        tuple
            ``(SimResult, HostLoop)``.

        """
        s = self.setup
        host = HostLoop(controller, self.model, s.friction_band, s.velocity_bandwidth,
                        s.velocity_damping, s.missed if missed is None else missed, s.seed)
        plant = BoardMechanics(self.truth, s.rate, s.plant, s.sensors, self.home)
        res = simulate(plant, host, self.reference, self.duration + s.settle + rest,
                       sensor=Sensor(resolution=self.resolution), label=label)
        return res, host

    def figures(self, result, host=None):
        """
        Summarise a run as the demo's report does.

        Parameters
        ----------
        result : SimResult
            A run of :meth:`run`.
        host : HostLoop, optional
            Its host (the missed reports).

        Returns
        -------
        LawFigures
            Errors over the plan and the settling time, payload figures.

        """
        t = result.times
        window = t <= self.duration + self.setup.settle
        err = np.degrees(result.error[window])
        out = {'label': result.label, 'rms': np.sqrt(np.mean(err ** 2, axis=0)),
               'max_abs': np.abs(err).max(axis=0),
               'missed': host.skipped if host is not None else 0}
        est = result.estimates
        if 'payload_mass' in est:
            mass, frozen = est['payload_mass'], est['payload_frozen'].astype(bool)
            moving = (t >= 0.5) & (t <= self.duration)
            end = min(int(np.searchsorted(t, self.duration)), len(t) - 1)
            out.update(payload_moving=float(np.median(mass[moving])),
                       payload_end=float(mass[end]), payload_rest=float(mass[-1]),
                       frozen_rest=bool(frozen[-1]),
                       frozen_moving=float(np.mean(frozen[moving])))
        return LawFigures(**out)
