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
One whole CT+LME or MBVSST sample as a single compiled call (optional).

A control loop that runs once per millisecond leaves the CPU between steps,
and each step then starts with cold caches: the Python of a step costs
three to four times what it costs back to back (measured in
``docs/benchmarks.md``). :func:`ct_lme_step` therefore does a whole normal
sample of :class:`~robodyn_ros.control.computed_torque_lme.ComputedTorqueLME`
and :class:`~robodyn_ros.control.mbvsst.MBVSST` in one call: input check,
payload-estimator sample, computed torque with the estimated payload, the
variable-structure self-tuners, saturation and the integral's anti-windup.
It uses the compiled pieces of :mod:`.fast_lme` and :mod:`.fast_tuner`, so
the arithmetic is theirs. The controllers call it only for a normal sample
(valid state and reference, filters running); everything else (first
samples, restarts, faults, a non-finite torque) goes through the Python
code, which stays the reference.
"""

import numpy as np

from . import fast_lme, fast_tuner

#: Outcome codes of :func:`ct_lme_step`.
OK, SATURATED, BAD_INPUT, BAD_TORQUE = 0, 1, 2, 3

AVAILABLE = fast_lme.AVAILABLE and fast_tuner.AVAILABLE


def _all_finite(a):
    for x in a:
        if not np.isfinite(x):
            return False
    return True


_finite = fast_lme.numba.njit(cache=True)(_all_finite) if AVAILABLE else None


def _ct_lme_step(q, qd, rq, rqd, rqdd, last_tau, adapt, est_x, est_phi, est_g0, est_g1,
                 est_row, est_b_last, est_q_prev, est_update, est_joints, est_rls,
                 est_scratch, kp, kd, ki, integral, form, period, limit, addresses,
                 ct_scratch, tuner_on, tz, ta, tb, tm_id, tm_target, tm_em, ttheta, tcov,
                 tlam, tvar_cap, tlower, tupper, tunit, tng, tsmall, tu_min, tu_max,
                 tswitched, tboundary, tiu, tresid, setpoint_p, vsst_gain, u_out, tau, sat,
                 e):
    """
    Run one normal sample; return ``(code, estimate_updated)``.

    ``tau``, ``sat``, ``e`` and ``u_out`` (n,) receive the saturated torque,
    the saturated joints, the tracking error and the tuner outputs. With
    ``BAD_INPUT`` nothing has been changed; with ``BAD_TORQUE`` the
    estimator and tuners have taken the sample (as in the Python code).
    """
    if not (_finite(q) and _finite(qd) and _finite(rq) and _finite(rqd) and _finite(rqdd)):
        return BAD_INPUT, False
    n = q.shape[0]
    updated = False
    if adapt:
        updated = fast_lme.estimator_sample(
            est_x, est_phi, est_g0, est_g1, est_row, est_b_last, est_q_prev, q, last_tau,
            est_update, est_joints, addresses[0], addresses[1], addresses[2], est_rls,
            est_scratch) == fast_lme.UPDATED
    fast_lme.ct_payload_torque(q, qd, rq, rqd, rqdd, kp, kd, ki, integral, form, est_rls[0],
                               e, addresses[0], addresses[1], addresses[2], ct_scratch, tau)
    if tuner_on:
        w = ct_scratch[0]
        for j in range(n):
            if setpoint_p.shape[0] == 0:
                w[j] = rq[j]
            else:
                acc = 0.0 + setpoint_p[0] * rq[j]
                if setpoint_p.shape[0] > 1:
                    acc += setpoint_p[1] * rqd[j]
                if setpoint_p.shape[0] > 2:
                    acc += setpoint_p[2] * rqdd[j]
                w[j] = acc
        u = fast_tuner.tuner_step(tz, ta, tb, q, tm_id, tm_target, tm_em, ttheta, tcov, tlam,
                                  tvar_cap, tlower, tupper, tunit, tng, w, tsmall, tu_min,
                                  tu_max, tswitched, tboundary, True, tiu, tresid)
        for j in range(n):
            u_out[j] = u[j]
            tau[j] = tau[j] + (vsst_gain[j] * u[j] if vsst_gain[j] != 0.0 else 0.0)
    if not _finite(tau):
        return BAD_TORQUE, updated
    any_sat = False
    ki_on = False
    for j in range(n):
        out = min(max(tau[j], -limit[j]), limit[j])
        sat[j] = out != tau[j]
        any_sat = any_sat or sat[j]
        tau[j] = out
        ki_on = ki_on or ki[j] != 0.0
    if ki_on:   # anti-windup: the integral stops growing where saturation pushes the same way
        for j in range(n):
            if not (sat[j] and np.sign(e[j]) == np.sign(tau[j])):
                integral[j] = integral[j] + period * e[j]
    return (SATURATED if any_sat else OK), updated


ct_lme_step = fast_lme.numba.njit(cache=True)(_ct_lme_step) if AVAILABLE else None
