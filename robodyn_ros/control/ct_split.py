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
The split form of the computed-torque sample, in loop form: an impedance set-point.

:func:`ct_split` is to :func:`~.ct_step.ct_step` what the board's impedance
mode is to its current mode. The computed-torque law::

    tau = M w + h + Y_m m_hat + relay u,    w = qdd_ref + Ki int(e) + Kd (qd_ref - qd) + Kp e

is split into what the board closes itself at its inner rate (the PD) and
what the host computes once per sample along the reference (seed 001's
"predictive" computed torque, eq. 9.31, Khalil 78)::

    q_ref, qd_ref   the reference at the sample's time
    kp_j = Kp_j M_jj(q_ref),  kd_j = Kd_j M_jj(q_ref)                      [N m/rad, N m s/rad]
    tau_ff = M(q_ref) (qdd_ref + Ki int(e)) + h(q_ref, qd_ref)
             + m_hat y_m(q_ref, qd_ref, qdd_ref + Ki int(e)) + relay u     [N m]

``M`` is the model's inertia with the estimated payload (``M_jj`` with
:func:`~.step_dynamics.inertia_diagonal`), ``h`` its bias (gravity, Coriolis
and the model's friction). **The decoupled approximation**: the PD gains
scale each joint's error by its own diagonal inertia only; the full law
multiplies the error vector by the whole matrix. At the sample's own state
(``t = t_s``) the board's torque therefore equals the predictive law's up to
the off-diagonal terms, ``sum_{k != j} M_jk(q_ref) (Kp_k e_k + Kd_k ed_k)``,
and exactly when the inertia is diagonal or the error is zero. The
tracking form differs from it further by evaluating ``M`` and ``h`` at the
measured state; the split form is the same for both (the model terms are on
the reference, which is what lets the host compute them ahead of a late
frame). The regulation form splits with ``qd_ref = 0`` and the model terms
``g(q_ref) + M(q_ref) Ki int(e)``.

The payload estimator takes, as the torque applied since the last sample,
the torque of the board's PD at the last sample's state (the equivalent
torque the output record holds); the tuners see the positions as in the
ordinary sample. Saturation: the equivalent torque is saturated as the
ordinary torque is (its flags drive the integral's anti-windup), the
feed-forward is clipped to the same limits; the board clamps its current
at every inner period.
"""

from .ct_step import DIAGONAL, integral_on, SCRATCH, SETPOINT, W
from .jit import compiled, jitable
from .payload import estimator_sample
from .saturation import BAD_TORQUE, integrate_error, saturate
from .step_dynamics import inertia_diagonal, model_torque
from .vsst_step import tuner_setpoint, tuner_step


@jitable
def _reference_line(g, q, rq, rqd, rqdd, e, q_ref, qd_ref, acc):
    """Fill the error, the reference line and the model's acceleration along it (n,)."""
    n = q.shape[0]
    ki, integral = g['ki'], g['integral']
    ki_on = integral_on(g, n)
    regulation = g['form'] == 1
    for j in range(n):
        e[j] = rq[j] - q[j]
        q_ref[j] = rq[j]
        qd_ref[j] = 0.0 if regulation else rqd[j]
        acc[j] = 0.0 if regulation else rqdd[j]
        if ki_on:
            acc[j] = acc[j] + ki[j] * integral[j]


@jitable
def ct_split(g, est, tuner, kernels, q, qd, rq, rqd, rqdd, out, sp):
    """
    One split sample; fill the set-point record ``sp`` and ``out``, return the outcome code.

    The records are those of :func:`~.ct_step.ct_step` plus ``sp``
    (:func:`~.split_form.impedance_dtype`). On entry ``out['tau']`` is the
    torque applied since the last sample (the estimator's input), on return
    the torque of the board's PD at this sample's state, saturated (or
    garbage with ``BAD_TORQUE``).
    """
    n = q.shape[0]
    tau, sat, e = out['tau'][:n], out['saturated'][:n], out['error'][:n]
    q_ref, qd_ref, ff = sp['q_ref'][:n], sp['qd_ref'][:n], sp['tau_ff'][:n]
    kp_out, kd_out = sp['kp'][:n], sp['kd'][:n]
    steps = max(g['steps'], 1)
    if g['adapt']:
        est['steps'] = steps
        estimator_sample(est, kernels, q, tau)
    work = g['work']
    acc = work[W][:n]
    _reference_line(g, q, rq, rqd, rqdd, e, q_ref, qd_ref, acc)
    mass = est['rls']['theta'][0] if g['payload'] else 0.0
    model_torque(kernels, est['payload'], q_ref, qd_ref, acc, mass, ff)
    inertia = work[DIAGONAL][:n]
    inertia_diagonal(kernels, est['payload'], q_ref, mass, g['matrix'][:n * n],
                     work[SCRATCH:], inertia)
    if g['tune']:
        setpoint = work[SETPOINT][:n]
        tuner_setpoint(tuner, rq, rqd, rqdd, setpoint)
        tuner['steps'] = steps
        tuner_step(tuner, q, setpoint)
        u, relay = tuner['u'], g['relay']
        for j in range(n):
            ff[j] = ff[j] + (relay[j] * u[j] if relay[j] != 0.0 else 0.0)
    kp, kd, limit = g['kp'], g['kd'], g['limit']
    for j in range(n):
        kp_out[j] = max(kp[j] * inertia[j], 0.0)
        kd_out[j] = max(kd[j] * inertia[j], 0.0)
        tau[j] = ff[j] + kp_out[j] * e[j] + kd_out[j] * (qd_ref[j] - qd[j])
    code = saturate(tau, limit, tau, sat, n)
    if code == BAD_TORQUE:
        return code
    for j in range(n):
        ff[j] = min(max(ff[j], -limit[j]), limit[j])
    if integral_on(g, n):
        integrate_error(g['integral'], e, tau, sat, g['period'] * steps, g['band_low'],
                        g['band_high'], n)
    return code


def _split_call(law, est, tuner, kernels, q, qd, rq, rqd, rqdd, out, sp):
    """:func:`ct_split` on one-element record arrays (how Python passes records fast)."""
    return ct_split(law[0], est[0], tuner[0], kernels, q, qd, rq, rqd, rqdd, out[0], sp[0])


#: Entry point for calls from Python (compiled when numba is there).
ct_split_entry = compiled(jitable(_split_call))


def python_split():
    """
    Give the Python run of the entry point (no numba, or no C kernels).

    Returns
    -------
    callable
        :func:`ct_split` on one-element records, as a plain function.

    """
    return _split_call
