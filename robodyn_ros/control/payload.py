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
On-line payload mass estimation (seed 003 ch. 4, "LME"): the estimator.

The estimator (eqs. 4.10-4.15) runs recursive least squares with forgetting
on ``psi = tau - tau_0 = y_m m``, the payload model's linear form
(:mod:`.payload_model`, seed 003 eq. 4.1), with every signal passed through
the same state-variable filter (Appendix B): the measured positions give
the filtered position, velocity and acceleration, and the applied torque
(held constant over each sample) is filtered alike. Only the estimating
joints feed the estimator; seed 003 uses the waist, the default is the
joints a payload loads with its weight
(:func:`~.payload_model.gravity_joints`). Its settings are one record,
:class:`~.payload_settings.PayloadEstimatorSettings`.

The estimate is held while the data do not excite it (the freeze rule,
:func:`~.payload_excitation.excitation_step`): the estimate reached while
the arm moved is kept, and the excitation and whether the estimate is held
are reported.

The estimator owns a record (:func:`estimator_dtype`) that nests its filter's
and its RLS's; one sample of it is :func:`estimator_sample`, in loop form
(compiled with numba, see :mod:`.jit`), also run inside the compiled control
step of the computed-torque laws.

The payload model, the settings and the freeze rule live in their own
modules; their names stay importable from here.
"""

import functools

import numpy as np

from .checks import as_vector
from .filters import filter_advance, filter_dtype, filter_output, filter_start
from .filters import StateVariableFilter
from .jit import capacity, compiled, jitable, record
from .payload_excitation import excitation_step
from .payload_model import gravity_joints, GRAVITY_SHARE, PayloadModel
from .payload_settings import FAST_FILTER, PayloadEstimatorSettings, SEED003_ESTIMATOR
from .payload_settings import SEED003_MEMORY
from .rls import RecursiveLeastSquares, rls_dtype, rls_scalar_update
from .step_dynamics import model_torque, payload_regressor, payload_vector, StepKernels
from ..errors import InputError

#: Outcomes of :func:`estimator_sample`.
SKIPPED, UPDATED, FROZEN = 0, 1, 2


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


def _sample_call(state, kernels, q, tau):
    return estimator_sample(state[0], kernels, q, tau)


_sample = compiled(jitable(_sample_call))


class PayloadEstimator:
    """
    Recursive payload-mass estimator on state-variable-filtered signals.

    Parameters
    ----------
    payload : PayloadModel
        The linear-in-mass model.
    period : float
        Sample period [s].
    settings : PayloadEstimatorSettings
        How the mass is estimated: initial mass [kg], variance [kg^2],
        forgetting per sample (default seed 003's memory at this period,
        :meth:`~.payload_settings.PayloadEstimatorSettings.forgetting_at`),
        bounds [kg], estimating joints (default :func:`gravity_joints`),
        filter ``C(s)`` and freeze rule (threshold [N m/kg], window [s]).
        Its frame and centre of mass are the payload model's: they must
        match ``payload`` (the laws build both from one record).
    min_excitation : float
        Samples whose regressor norm is below this [N m/kg] are skipped.
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

    def __init__(self, payload, period, settings=PayloadEstimatorSettings(), *,
                 min_excitation=1e-6, settle_time=None, compiled=True):
        if not isinstance(settings, PayloadEstimatorSettings):
            raise InputError('settings', f'must be a PayloadEstimatorSettings, got '
                                         f'{settings!r}')
        if (settings.frame or payload.model.end_effector) != payload.frame \
                or not np.array_equal(settings.com, payload.com):
            raise InputError('settings', f'frame and com must match the payload model '
                                         f'({payload.frame}, {list(payload.com)}), got '
                                         f'({settings.frame}, {list(settings.com)})')
        self.payload = payload
        self.settings = settings
        n = payload.model.n
        joints = gravity_joints(payload) if settings.joints is None else settings.joints
        self.joints = np.array(sorted({int(j) for j in joints}), dtype=int)
        if self.joints.size == 0 or self.joints.min() < 0 or self.joints.max() >= n:
            raise InputError('joints', f'need joint indices in 0..{n - 1}, got {list(joints)}')
        coefficients = settings.filter_coefficients
        self.state = record(estimator_dtype(n, len(coefficients) - 1))
        s = self.state[0]
        low, high = settings.mass_bounds
        self.rls = RecursiveLeastSquares([settings.initial_mass], settings.variance,
                                         settings.forgetting_at(period), low, high,
                                         state=self.state['rls'])
        s['min_excitation'] = float(min_excitation)
        s['period'] = float(period)
        s['freeze_below'] = settings.freeze_threshold
        s['window'] = -np.expm1(-float(period) / settings.excitation_window)
        s['steps'] = 1
        s['n_joints'] = self.joints.size
        s['joints'][:self.joints.size] = self.joints
        # One filter, 2n channels: positions (linear hold) then torques (zero hold).
        self.filter = StateVariableFilter(coefficients, period, 2 * n,
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


__all__ = ['estimator_dtype', 'estimator_sample', 'excitation_step', 'FAST_FILTER', 'FROZEN',
           'GRAVITY_SHARE', 'gravity_joints', 'PayloadEstimator', 'PayloadEstimatorSettings',
           'PayloadModel', 'SEED003_ESTIMATOR', 'SEED003_MEMORY', 'SKIPPED', 'UPDATED']
