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
On-line payload mass estimation (seed 003 ch. 4, "LME").

The payload is a point mass ``m`` (or a body whose inertia scales with its
mass) fixed at a known place on the last link. The rigid-body dynamics are
linear in the inertial parameters, so the torque is exactly linear in ``m``
(seed 003 eq. 4.1)::

    tau = tau_0(q, qd, qdd) + m y_m(q, qd, qdd)

``tau_0`` is the inverse dynamics of the controller's model without the
payload (friction included) and ``y_m`` the rigid-body torque of a unit
point mass. Both come from the robot's payload-parametric kernels
(:func:`robodyn_ros.dynamics.codegen.kernels` with the payload frame): one
call each for ``tau_0 + m y_m`` (``inverse_dynamics_payload``), ``y_m``
(``payload_torque``) and the gravity with the payload. (Load-dependent
friction, seed 004, is the one part that is not linear in the payload; it is
evaluated without the payload, so the model is exactly linear in ``m``.)

The estimator (eqs. 4.10-4.15) runs recursive least squares with forgetting
on ``psi = tau - tau_0 = y_m m`` with every signal passed through the same
state-variable filter (Appendix B): the measured positions give the filtered
position, velocity and acceleration, and the applied torque (held constant
over each sample) is filtered alike. Only the joints in ``joints`` feed the
estimator; seed 003 uses the waist, the default is the joints a payload
loads with its weight (:func:`gravity_joints`).

The estimate is held while the data do not excite it (:func:`excitation_step`):
at rest, Coulomb friction carries part of the load and the torque no longer
tells the payload's weight; the estimate reached while the arm moved is
kept, and the excitation and whether the estimate is held are reported.

The estimator owns a record (:func:`estimator_dtype`) that nests its filter's
and its RLS's; one sample of it is :func:`estimator_sample`, in loop form
(compiled with numba, see :mod:`.jit`), also run inside the compiled control
step of the computed-torque laws.
"""

from dataclasses import dataclass
import functools
import math

import numpy as np

from .checks import as_vector, setting_integers, setting_number, setting_numbers
from .filters import filter_advance, filter_dtype, filter_output, filter_start
from .filters import SEED003_REALTIME, StateVariableFilter
from .jit import capacity, compiled, jitable, record
from .model_dynamics import ModelDynamics
from .rls import RecursiveLeastSquares, rls_dtype, rls_scalar_update
from .step_dynamics import model_torque, payload_regressor, payload_vector, StepKernels
from ..dynamics.codegen import kernels
from ..errors import InputError

#: Outcomes of :func:`estimator_sample`.
SKIPPED, UPDATED, FROZEN = 0, 1, 2

#: The default state-variable filter, ``C(s) = (0.02 s + 1)^2`` (five times faster than
#: seed 003's Appendix B filter, :data:`~.filters.SEED003_REALTIME`).
FAST_FILTER = (0.0004, 0.04, 1.0)

#: Share of the largest gravity sensitivity that makes a default estimating joint.
GRAVITY_SHARE = 0.3

#: Memory of seed 003's load estimator [s]: forgetting 0.98 per sample at its 121 Hz.
SEED003_MEMORY = -1.0 / (121.0 * math.log(0.98))


class PayloadModel:
    """
    Inverse dynamics linear in an unknown payload mass.

    Parameters
    ----------
    model : RobotModel
        The controller's model without the payload.
    frame : str, optional
        Frame the payload is fixed to; default the model's end effector.
    com : array_like
        Payload centre of mass in that frame [m].
    backend : str
        Dynamics backend (see :class:`ModelDynamics`).
    dynamics : ModelDynamics, optional
        The model's dynamics, shared with the controller; its backend is
        used for the payload kernels too.

    Attributes
    ----------
    base : ModelDynamics
        Dynamics without the payload.
    kernels : Kernels or NumpyKernels
        The model's kernels with the payload in ``frame``.

    """

    def __init__(self, model, frame=None, com=(0.0, 0.0, 0.0), backend='auto', dynamics=None):
        self.model = model
        self.frame = frame or model.end_effector
        self.com = np.array(com, dtype=float).reshape(3)
        if not np.all(np.isfinite(self.com)):
            raise InputError('com', 'must be finite')
        self.base = dynamics if dynamics is not None else ModelDynamics(model, backend)
        self.kernels = kernels(model, self.base.kernels.backend, payload_frame=self.frame)
        self._payload = np.concatenate(([0.0], self.com))
        self._idp = self.kernels.inverse_dynamics_payload
        self._ym = self.kernels.payload_torque
        self._gp = self.kernels.gravity_payload

    def regressor(self, q, qd, qdd):
        """
        Torque of a 1 kg payload, ``y_m`` (n,) [N m/kg].

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State and acceleration, float64 (n,).

        Returns
        -------
        numpy.ndarray
            ``y_m``.

        """
        return self._ym(q, qd, qdd, self.com)

    def inverse_dynamics(self, q, qd, qdd, mass):
        """
        Torque with a payload of ``mass`` kg, ``tau_0 + mass y_m``.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State and acceleration, float64 (n,).
        mass : float
            Payload [kg].

        Returns
        -------
        numpy.ndarray
            (n,) [N m or N].

        """
        payload = self._payload
        payload[0] = mass
        return self._idp(q, qd, qdd, payload)

    def gravity(self, q, mass):
        """
        Gravity torque with the payload, (n,) [N m or N].

        Parameters
        ----------
        q : numpy.ndarray
            Positions, float64 (n,).
        mass : float
            Payload [kg].

        Returns
        -------
        numpy.ndarray
            ``g_0(q) + mass y_m(q, 0, 0)``.

        """
        payload = self._payload
        payload[0] = mass
        return self._gp(q, payload)


def gravity_joints(payload, q=None, share=GRAVITY_SHARE):
    """
    Return the joints whose gravity torque the payload changes most: the default estimating joints.

    A payload shows in the torque of a gravity-loaded joint at every speed,
    at rest included; in a joint about a vertical axis (the waist) only
    through its inertia, where an unmodelled torque of the joint (friction)
    can outweigh it.

    Parameters
    ----------
    payload : PayloadModel
        The linear-in-mass model (frame and centre of mass of the payload).
    q : array_like, optional
        Configuration [rad or m]; default the model's home configuration.
    share : float
        Keep the joints whose sensitivity is at least this share of the
        largest.

    Returns
    -------
    list of int
        Joint indices (0-based); every joint when no joint's gravity torque
        depends on the payload in ``q``.

    """
    model = payload.model
    q = model.home_configuration() if q is None else np.asarray(q, dtype=float)
    zero = np.zeros(model.n)
    sens = np.abs(payload.regressor(q, zero, zero))
    if not sens.max() > 0.0:
        return list(range(model.n))
    return [int(j) for j in np.flatnonzero(sens >= share * sens.max())]


@functools.lru_cache(maxsize=None)
def estimator_dtype(n, order):
    """
    Record type of a payload estimator for ``n`` joints and a filter of ``order``.

    Parameters
    ----------
    n : int
        Joints.
    order : int
        ``deg C`` of the state-variable filter.

    Returns
    -------
    numpy.dtype
        Fields ``count`` (samples since the (re)start), ``settle`` (samples
        without an update after it), ``steps`` (periods since the last
        sample, >= 1, set by the caller), ``min_excitation``, ``payload`` (``[m,
        cx, cy, cz]`` of the kernel calls), the estimating
        ``joints`` (their number ``n_joints``), the filter input ``u``, work
        rows, the excitation (``period`` [s], ``window`` weight of a sample,
        ``freeze_below`` [N m/kg], the windowed mean square ``excitation``
        [(N m/kg)^2] and ``frozen``), and the nested ``filter`` (2n
        channels: positions, then torques) and ``rls`` (one parameter)
        records.

    """
    cap = capacity(n)
    return np.dtype([('count', np.int64), ('settle', np.int64), ('n_joints', np.int64),
                     ('steps', np.int64), ('min_excitation', np.float64), ('period', np.float64),
                     ('window', np.float64), ('freeze_below', np.float64),
                     ('excitation', np.float64), ('frozen', np.bool_),
                     ('payload', np.float64, (4,)), ('joints', np.int64, (cap,)),
                     ('u', np.float64, (2 * cap,)), ('work', np.float64, (8, cap)),
                     ('filter', filter_dtype(order, 2 * n)), ('rls', rls_dtype(1))],
                    align=True)


@jitable
def estimator_sample(e, kernels, q, tau):
    """
    Take one sample: positions ``q`` (n,) now, torque ``tau`` (n,) applied since the last one.

    ``e['steps']`` periods have passed since the last sample (a loop that
    missed samples): the filter advances that many periods, with the
    positions interpolated linearly over them and the torque held.

    Returns ``UPDATED`` when the estimate took a step, ``FROZEN`` when the
    regressor does not excite it (see :func:`excitation_step`), else
    ``SKIPPED`` (first samples, settling, a regressor below
    ``min_excitation``, non-finite data).
    """
    n = q.shape[0]
    f, u = e['filter'], e['u']
    count = e['count'] + 1
    e['count'] = count
    if count == 1:   # no torque has been applied yet: only remember the position
        for j in range(n):
            u[j] = q[j]
        return SKIPPED
    for j in range(n):
        u[n + j] = tau[j]
    if count == 2:   # every channel at the steady state of its first value
        filter_start(f, u)
    # Positions interpolated linearly over the sample(s), torques held (zero order).
    steps = max(e['steps'], 1)
    work = e['work']
    prev = work[4][:n]
    for j in range(n):
        prev[j] = u[j]
    for i in range(1, steps + 1):
        for j in range(n):
            u[j] = prev[j] + (q[j] - prev[j]) * (i / steps)
        filter_advance(f, u)
    if count <= e['settle'] + 2:
        return SKIPPED
    # Filtered position, velocity, acceleration (s^i q / C) and torque (tau / C).
    qf, qdf, qddf = work[0][:n], work[1][:n], work[2][:n]
    for c in range(n):
        qf[c] = filter_output(f, 0, c, q[c])
        qdf[c] = filter_output(f, 1, c, q[c])
        qddf[c] = filter_output(f, 2, c, q[c])
    ym, static, full = work[3][:n], work[4][:n], work[5][:n]
    payload = e['payload']
    payload_regressor(kernels, payload, qf, qdf, qddf, ym)
    joints, m = e['joints'], e['n_joints']
    largest = 0.0
    for k in range(m):
        d = abs(ym[joints[k]])
        if not np.isfinite(d):
            return SKIPPED
        largest = max(largest, d)
    # The inertial part of the regressor: y_m(qf, qdf, qddf) - y_m(qf, qdf, 0).
    zero = work[6][:n]
    for c in range(n):
        zero[c] = 0.0
    payload_regressor(kernels, payload, qf, qdf, zero, static)
    for c in range(n):
        static[c] = ym[c] - static[c]
    if excitation_step(e, static, joints, m):
        return FROZEN
    if not largest >= e['min_excitation']:
        return SKIPPED
    model_torque(kernels, payload, qf, qdf, qddf, 0.0, full)
    x, psi = work[6], work[7]
    for k in range(m):
        j = joints[k]
        x[k] = ym[j]
        psi[k] = filter_output(f, 0, n + j, tau[j]) - full[j]
    if rls_scalar_update(e['rls'], x, psi, m):
        return UPDATED
    return SKIPPED


@jitable
def excitation_step(e, inertial, joints, m):
    """
    Update the excitation with this sample's inertial regressor rows; tell whether to freeze.

    ``inertial`` (n,) is the part of the regressor that the filtered
    acceleration makes, ``y_m(q, qd, qdd) - y_m(q, qd, 0)`` [N m/kg]: the
    torque the payload's inertia puts on each joint per kg. The excitation
    is its windowed mean square over the estimating joints (exponential
    window, ``excitation += window (sum_k inertial_k^2 - excitation)``). At
    rest and at constant velocity it vanishes: the equations then carry no
    inertial information, only static torques that an unmodelled constant
    torque (Coulomb friction holding part of the load at rest) imitates.
    Below ``freeze_below`` the estimate and its variance are held.
    """
    acc = 0.0
    for k in range(m):
        v = inertial[joints[k]]
        acc += v * v
    weight = 1.0 - (1.0 - e['window']) ** max(e['steps'], 1)   # the window in time
    e['excitation'] = e['excitation'] + weight * (acc - e['excitation'])
    limit = e['freeze_below']
    frozen = limit > 0.0 and not e['excitation'] >= limit * limit
    e['frozen'] = frozen
    return frozen


def _sample_call(state, kernels, q, tau):
    return estimator_sample(state[0], kernels, q, tau)


_sample = compiled(jitable(_sample_call))


@dataclass(frozen=True)
class PayloadEstimatorSettings:
    """
    Settings of an on-line payload estimator: where the payload is, and how it is estimated.

    Every field is checked (and sequences made tuples) when the record is
    made; the joints and the frame are checked against the model where it
    is used.

    Attributes
    ----------
    frame : str or None
        Frame the payload is fixed to (None: the model's end effector).
    com : tuple of float
        Payload centre of mass in that frame, (3,) [m].
    initial_mass : float
        Initial estimate [kg] (seed 003: 1.5 kg in simulation), within
        ``mass_bounds``.
    forgetting : float or None
        RLS forgetting factor per sample in (0, 1] [-] (seed 003: "usually
        about 0.98" for the load estimator, at its 121 Hz). None (the
        default): the factor that gives seed 003's memory,
        :data:`SEED003_MEMORY` (0.41 s), at the law's rate, ``exp(-period /
        SEED003_MEMORY)`` (0.98 at 121 Hz, 0.9976 at 1 kHz; a fixed 0.98 at
        1 kHz forgets in 50 ms).
    variance : float
        Initial RLS variance [kg^2].
    mass_bounds : tuple of float
        Lower and upper bounds of the estimate [kg].
    joints : tuple of int or None
        Joints (0-based) whose torque equations feed the estimator; None
        (the default): the joints whose gravity torque the payload changes
        most at the model's home configuration (:func:`gravity_joints`;
        seed 003: the waist, 0, which a payload loads only through its
        inertia).
    filter_coefficients : tuple of float
        State-variable filter ``C(s)``, highest power first, degree >= 2
        (coefficient of ``s^k`` in [s^k]); default ``(0.02 s + 1)^2``,
        five times faster than seed 003's Appendix B filter ``(0.1 s +
        1)^2`` (0.01, 0.2, 1), whose 0.2 s lag keeps the filtered signals
        moving long after the arm stopped.
    freeze_threshold : float
        Hold the estimate while its excitation, the windowed RMS of the
        inertial part of the estimating joints' regressor (the torque per kg
        of the payload's inertia, :func:`excitation_step`), is below this
        [N m/kg]: at rest and at constant velocity; 0 never holds it (seed
        003).
    excitation_window : float
        Time constant of the excitation's exponential window [s].

    """

    frame: str = None
    com: tuple = (0.0, 0.0, 0.0)
    initial_mass: float = 0.0
    forgetting: float = None
    variance: float = 100.0
    mass_bounds: tuple = (0.0, 50.0)
    joints: tuple = None
    filter_coefficients: tuple = FAST_FILTER
    freeze_threshold: float = 0.2
    excitation_window: float = 0.02

    def __post_init__(self):
        if self.frame is not None and not isinstance(self.frame, str):
            raise InputError('frame', f'must be a frame name or None, got {self.frame!r}')
        joints = None if self.joints is None else setting_integers(self.joints, 'joints')
        checked = {
            'com': setting_numbers(self.com, 'com', length=3),
            'initial_mass': setting_number(self.initial_mass, 'initial_mass'),
            'forgetting': None if self.forgetting is None else setting_number(
                self.forgetting, 'forgetting', low=0.0, strict=True, high=1.0),
            'variance': setting_number(self.variance, 'variance', low=0.0, strict=True),
            'mass_bounds': setting_numbers(self.mass_bounds, 'mass_bounds', length=2),
            'joints': joints if joints is None or isinstance(joints, tuple) else (joints,),
            'filter_coefficients': setting_numbers(self.filter_coefficients,
                                                   'filter_coefficients'),
            'freeze_threshold': setting_number(self.freeze_threshold, 'freeze_threshold',
                                               low=0.0),
            'excitation_window': setting_number(self.excitation_window, 'excitation_window',
                                                low=0.0, strict=True),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        low, high = self.mass_bounds
        if not low <= high:
            raise InputError('mass_bounds', f'must be [low, high] with low <= high [kg], got '
                                            f'{list(self.mass_bounds)}')
        if not low <= self.initial_mass <= high:
            raise InputError('initial_mass', f'must be within mass_bounds '
                                             f'{list(self.mass_bounds)} [kg], got '
                                             f'{self.initial_mass}')
        if not isinstance(self.filter_coefficients, tuple) or len(self.filter_coefficients) < 3:
            raise InputError('filter_coefficients', 'C(s) must have degree >= 2 (the filter '
                                                    'must give an acceleration)')


#: The defaults, which :class:`PayloadEstimator` shares.
_DEFAULT = PayloadEstimatorSettings()

#: Seed 003's estimator as the thesis ran it: the waist equation, forgetting 0.98 per
#: sample, the Appendix B filter ``(0.1 s + 1)^2``, never held (``dataclasses.replace``
#: it for the other fields, e.g. the initial mass).
SEED003_ESTIMATOR = PayloadEstimatorSettings(forgetting=0.98, joints=(0,),
                                             filter_coefficients=SEED003_REALTIME,
                                             freeze_threshold=0.0)


class PayloadEstimator:
    """
    Recursive payload-mass estimator on state-variable-filtered signals.

    Its defaults are those of :class:`PayloadEstimatorSettings`, from which
    the load-estimating laws build it.

    Parameters
    ----------
    payload : PayloadModel
        The linear-in-mass model.
    period : float
        Sample period [s].
    initial : float
        Initial estimate [kg] (seed 003: 1.5 kg in simulation).
    variance : float
        Initial variance [kg^2].
    forgetting : float, optional
        Forgetting factor per sample (seed 003: "usually about 0.98", at 121
        Hz); default the factor of seed 003's memory at this period,
        ``exp(-period / SEED003_MEMORY)``.
    bounds : tuple of float
        Estimate bounds [kg].
    joints : sequence of int, optional
        Joints whose torque equation feeds the estimator; default
        :func:`gravity_joints` (seed 003: the waist, 0).
    filter_coefficients : sequence of float
        ``C(s)`` of the state-variable filter, highest power first, degree
        >= 2 (default :data:`FAST_FILTER`; seed 003 Appendix B: 0.01, 0.2,
        1).
    min_excitation : float
        Samples whose regressor norm is below this [N m/kg] are skipped.
    freeze_threshold : float
        The estimate is held while the excitation (the windowed RMS of the
        inertial part of the regressor rows, :func:`excitation_step`) is
        below this [N m/kg]; 0: never.
    excitation_window : float
        Time constant of the excitation's window [s].
    settle_time : float, optional
        Time after a (re)start during which the filters settle and the
        estimate is not updated [s]; default the sum of the filter's time
        constants, ``c_(k-1) / c_k`` (0.2 s for seed 003's filter).
    compiled : bool
        Run :meth:`update` compiled when numba and the C kernels are there.

    Attributes
    ----------
    state : numpy.ndarray
        The record (:func:`estimator_dtype`).
    filter : StateVariableFilter
        Its filter (2n channels, record nested in ``state``).
    rls : RecursiveLeastSquares
        Its one-parameter RLS (record nested in ``state``).
    kernels : StepKernels
        The payload model's kernels as the loop code calls them.

    """

    def __init__(self, payload, period, *, initial=_DEFAULT.initial_mass,
                 variance=_DEFAULT.variance, forgetting=_DEFAULT.forgetting,
                 bounds=_DEFAULT.mass_bounds, joints=_DEFAULT.joints,
                 filter_coefficients=_DEFAULT.filter_coefficients, min_excitation=1e-6,
                 freeze_threshold=_DEFAULT.freeze_threshold,
                 excitation_window=_DEFAULT.excitation_window, settle_time=None,
                 compiled=True):
        self.payload = payload
        n = payload.model.n
        if joints is None:
            joints = gravity_joints(payload)
        if forgetting is None:
            forgetting = math.exp(-float(period) / SEED003_MEMORY)
        self.joints = np.array(sorted({int(j) for j in joints}), dtype=int)
        if self.joints.size == 0 or self.joints.min() < 0 or self.joints.max() >= n:
            raise InputError('joints', f'need joint indices in 0..{n - 1}, got {list(joints)}')
        if len(filter_coefficients) < 3:
            raise InputError('filter_coefficients', 'C(s) must have degree >= 2 (the '
                                                    'filter must give an acceleration)')
        self.state = record(estimator_dtype(n, len(filter_coefficients) - 1))
        s = self.state[0]
        self.rls = RecursiveLeastSquares([initial], variance, forgetting, bounds[0], bounds[1],
                                         state=self.state['rls'])
        s['min_excitation'] = float(min_excitation)
        if not (freeze_threshold >= 0.0 and np.isfinite(freeze_threshold)):
            raise InputError('freeze_threshold', f'must be >= 0 N m/kg, got '
                                                 f'{freeze_threshold}')
        if not (excitation_window > 0.0 and np.isfinite(excitation_window)):
            raise InputError('excitation_window', f'must be > 0 s, got {excitation_window}')
        s['period'] = float(period)
        s['freeze_below'] = float(freeze_threshold)
        s['window'] = -np.expm1(-float(period) / float(excitation_window))
        s['steps'] = 1
        s['n_joints'] = self.joints.size
        s['joints'][:self.joints.size] = self.joints
        # One filter, 2n channels: positions (linear hold) then torques (zero hold).
        self.filter = StateVariableFilter(filter_coefficients, period, 2 * n,
                                          hold=('linear',) * n + ('zero',) * n,
                                          state=self.state['filter'])
        c = self.filter.coefficients
        settle = c[-2] / c[-1] if settle_time is None else float(settle_time)
        if not settle >= 0.0:
            raise InputError('settle_time', f'must be >= 0 s, got {settle_time}')
        s['settle'] = int(round(settle / period))
        s['payload'] = payload_vector(payload.com)
        self.kernels = StepKernels(payload.base, payload.kernels, compiled)
        self._sample = _sample if self.kernels.compiled else _sample_call

    @property
    def mass(self):
        """Give the current estimate [kg] (float)."""
        return float(self.rls.theta[0])

    @property
    def min_excitation(self):
        """Give the smallest regressor that updates the estimate [N m/kg] (float)."""
        return float(self.state[0]['min_excitation'])

    @property
    def excitation(self):
        """Give the excitation, the windowed RMS inertial regressor [N m/kg] (float)."""
        return float(np.sqrt(self.state[0]['excitation']))

    @property
    def frozen(self):
        """Tell whether the last sample held the estimate for want of excitation (bool)."""
        return bool(self.state[0]['frozen'])

    @property
    def freeze_threshold(self):
        """Give the excitation below which the estimate is held [N m/kg] (float)."""
        return float(self.state[0]['freeze_below'])

    @property
    def samples(self):
        """Count the samples since the last (re)start (int)."""
        return int(self.state[0]['count'])

    @property
    def settle_samples(self):
        """Count the samples after a (re)start without an update (int)."""
        return int(self.state[0]['settle'])

    def restart_filters(self):
        """Restart the filters (after a gap in the data); keep the estimate."""
        s = self.state[0]
        s['count'] = 0
        s['excitation'] = 0.0
        self.filter.reset()

    def update(self, q, tau_applied):
        """
        Add a sample and return the estimate.

        Parameters
        ----------
        q : numpy.ndarray
            Measured positions at this sample, (n,).
        tau_applied : numpy.ndarray
            Torque applied over the sample that just ended, (n,).

        Returns
        -------
        float
            Estimate [kg].

        """
        n = self.payload.model.n
        self._sample(self.state, self.kernels.handles, as_vector(q, n, 'q'),
                     as_vector(tau_applied, n, 'tau_applied'))
        return self.mass
