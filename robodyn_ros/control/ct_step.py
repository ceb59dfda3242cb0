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
One sample of computed torque, with its optional payload estimator and tuners, in loop form.

:func:`ct_step` is the whole normal sample of
:class:`~robodyn_ros.control.computed_torque.ComputedTorque` and of the laws
composed from it (CT+LME, MBVSST): the payload estimator's sample
(:func:`~.payload.estimator_sample`), the outer loop
(:func:`command_acceleration`), the model torque with the estimated payload
(:mod:`.step_dynamics`), the variable-structure tuners
(:func:`~.vsst_step.tuner_step`), saturation and the integral's anti-windup
(:mod:`.saturation`). It reads and writes the owners' records in place and
is compiled with numba when numba and the C kernels are there (see
:mod:`.jit`), else run as Python: one implementation either way.

A control loop at 1 kHz leaves the CPU between steps and each step starts
with cold caches; one compiled call per sample keeps the interpreter's share
small (``docs/benchmarks.md``).
"""

import functools

import numpy as np

from .jit import capacity, compiled, jitable
from .payload import estimator_sample
from .saturation import BAD_TORQUE, integrate_error, saturate
from .step_dynamics import model_torque
from .vsst_step import tuner_setpoint, tuner_step

#: Codes of the computed-torque forms.
FORM_CODES = {'tracking': 0, 'regulation': 1, 'predictive': 2}

#: Rows of the law record's work array (the split form's, :mod:`.ct_split`: the inertia
#: diagonal and four rows of scratch from ``SCRATCH``).
W, SETPOINT, ERROR, DIAGONAL, SCRATCH = 0, 1, 2, 3, 4


@functools.lru_cache(maxsize=None)
def law_dtype(n):
    """
    Record type of a computed-torque law for ``n`` joints: gains, integrator, limits, switches.

    Parameters
    ----------
    n : int
        Joints.

    Returns
    -------
    numpy.dtype
        ``form`` (a :data:`FORM_CODES` value), ``steps`` (periods since
        the last sample, >= 1: more when the loop missed samples),
        ``period`` [s], the parts in
        use (``adapt``: estimator sampled, ``payload``: estimate in the
        model, ``tune``: tuners), gains ``kp``, ``kd``, ``ki``, the error
        ``integral``, its ``band_low`` / ``band_high``, the torque ``limit``,
        the tuners' torque per unit ``relay`` (n,), work rows and the
        ``matrix`` buffer (n * n, row-major) of the split form's inertia.

    """
    cap = capacity(n)
    vec = (np.float64, (cap,))
    return np.dtype([('form', np.int64), ('steps', np.int64), ('period', np.float64),
                     ('adapt', np.bool_),
                     ('payload', np.bool_), ('tune', np.bool_), ('kp',) + vec, ('kd',) + vec,
                     ('ki',) + vec, ('integral',) + vec, ('band_low',) + vec,
                     ('band_high',) + vec, ('limit',) + vec, ('relay',) + vec,
                     ('work', np.float64, (8, cap)), ('matrix', np.float64, (cap * cap,))],
                    align=True)


@jitable
def integral_on(g, n):
    """Tell whether any joint has an integral gain."""
    ki = g['ki']
    for j in range(n):
        if ki[j] != 0.0:
            return True
    return False


@jitable
def command_acceleration(g, q, qd, rq, rqd, rqdd, e, w):
    """
    Outer loop: the error ``e = q_ref - q`` and the commanded acceleration ``w`` (n,).

    Tracking and predictive forms: ``w = qdd_ref + Kd (qd_ref - qd) + Kp e``;
    regulation: ``w = Kp e - Kd qd``; plus ``Ki integral(e)``.
    """
    n = q.shape[0]
    kp, kd, ki, integral = g['kp'], g['kd'], g['ki'], g['integral']
    ki_on = integral_on(g, n)
    regulation = g['form'] == 1
    for j in range(n):
        e[j] = rq[j] - q[j]
        if regulation:
            w[j] = kp[j] * e[j] - kd[j] * qd[j]
        else:
            w[j] = rqdd[j] + kd[j] * (rqd[j] - qd[j]) + kp[j] * e[j]
        if ki_on:
            w[j] = w[j] + ki[j] * integral[j]


@jitable
def ct_step(g, est, tuner, kernels, q, qd, rq, rqd, rqdd, out):
    """
    One normal sample; fill the output record ``out`` and return the outcome code.

    ``g``, ``est``, ``tuner`` and ``out`` are the records of the law, the
    payload estimator, the tuners and the outputs (the parts the law does
    not use are left alone). On entry ``out['tau']`` is the torque applied
    since the last sample (the estimator's input) and ``g['steps']`` the
    periods that passed since then (the filters of the estimator and the
    tuners advance that many, the integral integrates over them); on return
    the new saturated torque, or garbage with ``BAD_TORQUE``.
    """
    n = q.shape[0]
    tau, sat, e = out['tau'][:n], out['saturated'][:n], out['error'][:n]
    steps = max(g['steps'], 1)
    if g['adapt']:
        est['steps'] = steps
        estimator_sample(est, kernels, q, tau)
    work = g['work']
    w = work[W][:n]
    command_acceleration(g, q, qd, rq, rqd, rqdd, e, w)
    mass = est['rls']['theta'][0] if g['payload'] else 0.0
    if g['form'] == 2:   # predictive: the model on the desired state
        model_torque(kernels, est['payload'], rq, rqd, w, mass, tau)
    else:
        model_torque(kernels, est['payload'], q, qd, w, mass, tau)
    if g['tune']:
        setpoint = work[SETPOINT][:n]
        tuner_setpoint(tuner, rq, rqd, rqdd, setpoint)
        tuner['steps'] = steps
        tuner_step(tuner, q, setpoint)
        u, relay = tuner['u'], g['relay']
        for j in range(n):
            tau[j] = tau[j] + (relay[j] * u[j] if relay[j] != 0.0 else 0.0)
    code = saturate(tau, g['limit'], tau, sat, n)
    if code != BAD_TORQUE and integral_on(g, n):
        integrate_error(g['integral'], e, tau, sat, g['period'] * steps, g['band_low'],
                        g['band_high'], n)
    return code


def _step_call(law, est, tuner, kernels, q, qd, rq, rqd, rqdd, out):
    """:func:`ct_step` on one-element record arrays (how Python passes records fast)."""
    return ct_step(law[0], est[0], tuner[0], kernels, q, qd, rq, rqd, rqdd, out[0])


def _command_call(law, q, qd, rq, rqd, rqdd):
    """Outer loop from Python: error and acceleration into the work rows."""
    g = law[0]
    n = q.shape[0]
    work = g['work']
    command_acceleration(g, q, qd, rq, rqd, rqdd, work[ERROR][:n], work[W][:n])


def _integrate_call(law, tau, saturated, n):
    """Anti-windup from Python, after a Python step (error in the work row)."""
    g = law[0]
    if integral_on(g, n):
        integrate_error(g['integral'], g['work'][ERROR], tau, saturated, g['period'],
                        g['band_low'], g['band_high'], n)


#: Entry points for calls from Python (compiled when numba is there).
ct_step_entry = compiled(jitable(_step_call))
command_entry = compiled(jitable(_command_call))
integrate_entry = compiled(jitable(_integrate_call))


def python_functions():
    """
    Give the Python runs of the entry points (no numba, or no C kernels).

    Returns
    -------
    tuple
        ``(step, command, integrate)`` as plain functions.

    """
    return _step_call, _command_call, _integrate_call
