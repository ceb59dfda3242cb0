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
Seed 000's experiments: the Stanford arm along Trajectories 1 and 2, sampled at 5 ms.

* Trajectory 1: four joint knots (the thesis's table, its own q6 values),
  quintic from rest, constant velocity, quintic to rest, via times at 35 %
  and 65 % of the duration (:func:`robodyn_ros.planning.multi_segment.
  quintic_linear_quintic`).
* Trajectory 2: the same end points, a stop at the Cartesian midpoint at
  half time, two rest-to-rest quintics (the digest's reconstruction; q6 at
  the via point 30 deg).

:func:`error_table` computes the error measure of seed 000 (Tables 6.2,
6.4, 6.5, 6.6) for a prediction method in the thesis's Luh-Walker-Paul
frames (``frames='dh'``) with the thesis's gravity convention.
"""

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..parallel.linkframes import link_frames
from ..parallel.prediction import exact, prediction_error, simulate
from ..reproductions import parallel_figures as ref


@dataclass(frozen=True, eq=False)
class Samples:
    """
    A trajectory sampled at a fixed period.

    Attributes
    ----------
    t : numpy.ndarray
        Times, (K,) [s].
    q, qd, qdd : numpy.ndarray
        Positions, velocities, accelerations, (K, n) [rad or m, /s, /s^2].

    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray


def thesis_model():
    """
    Return the library Stanford arm with seed 000's gravity convention.

    Returns
    -------
    RobotModel
        ``stanford`` with gravity ``THESIS_GRAVITY`` (its G(q) is the thesis's).

    """
    from ..model import load_robot
    from ..model.library.stanford import THESIS_GRAVITY
    return load_robot('stanford').with_gravity(THESIS_GRAVITY)


def trajectory(which, duration, period=ref.ERROR_TABLE_PERIOD, via_q6_deg=None):
    """
    Sample seed 000's Trajectory 1 or 2.

    Parameters
    ----------
    which : {1, 2}
        Trajectory number.
    duration : float
        Total duration T [s] (> 0).
    period : float
        Sample period [s] (> 0).
    via_q6_deg : float, optional
        Joint 6 at Trajectory 2's via point [deg] (default 30).

    Returns
    -------
    Samples
        ``round(T / period) + 1`` samples from 0 to T.

    """
    from ..planning.multi_segment import quintic_linear_quintic, stop_and_go
    if which not in (1, 2):
        raise InputError('which', f'trajectory 1 or 2, got {which!r}')
    if not (np.isfinite(duration) and duration > 0 and np.isfinite(period) and period > 0):
        raise InputError('duration', f'duration and period must be > 0 s, got {duration}, '
                                     f'{period}')
    knots = np.array(ref.knots_in_si(ref.TRAJECTORY_1_KNOTS_DEG))
    if which == 1:
        t1, t2 = (f * duration for f in ref.TRAJECTORY_1_VIA)
        path = quintic_linear_quintic(knots, [0.0, t1, t2, duration])
    else:
        via = list(ref.TRAJECTORY_2_VIA_DEG)
        if via_q6_deg is not None:
            via[5] = float(via_q6_deg)
        points = np.array([knots[0], ref.knots_in_si([via])[0], knots[3]])
        path = stop_and_go(points, 'quintic', durations=[duration / 2, duration / 2])
    t = np.arange(int(round(duration / period)) + 1) * period
    q, qd, qdd = path.sample(np.minimum(t, duration))
    return Samples(t, q, qd, qdd)


def error_table(which, method, durations=ref.ERROR_TABLE_DURATIONS, frames='dh', model=None):
    """
    Prediction errors of a method along a trajectory, per duration and joint.

    Parameters
    ----------
    which : {1, 2}
        Trajectory.
    method : {'zero', 'first', 'hybrid'}
        Prediction method.
    durations : sequence of float
        Durations T [s].
    frames : {'dh', 'body'}
        Attached frames (the thesis: ``'dh'``).
    model : RobotModel, optional
        The robot (default :func:`thesis_model`).

    Returns
    -------
    dict
        Duration -> errors per joint (numpy array) [% of full scale].

    """
    fr = link_frames(model if model is not None else thesis_model(), frames)
    out = {}
    for duration in durations:
        s = trajectory(which, duration)
        truth = exact(fr, s.q, s.qd, s.qdd).tau
        pred = simulate(fr, s.q, s.qd, s.qdd, method).tau
        out[float(duration)] = prediction_error(pred, truth)
    return out


def reproduce(frames='dh'):
    """
    Reproduce Tables 6.2, 6.4, 6.5 and 6.6 beside the thesis and the digest.

    Parameters
    ----------
    frames : {'dh', 'body'}
        Attached frames.

    Returns
    -------
    dict
        Table name -> list of rows ``{'case', 'ours', 'thesis', 'digest'}``.

    """
    model = thesis_model()
    tables = {}
    for name, which, table in (('6.2', 1, ref.TABLE_6_2), ('6.4', 2, ref.TABLE_6_4)):
        errors = error_table(which, 'zero', tuple(table), frames, model)
        tables[name] = [{'case': f'trajectory {which}, {d:g} s', 'ours': errors[d].tolist(),
                         'thesis': list(table[d][0]), 'digest': list(table[d][1])}
                        for d in table]
    for name, method, table in (('6.5', 'first', ref.TABLE_6_5),
                                ('6.6', 'hybrid', ref.TABLE_6_6)):
        rows = []
        for (which, d), values in table.items():
            ours = error_table(which, method, (d,), frames, model)[d]
            thesis, digest = (values if name == '6.6' else
                              (values, ref.DIGEST_6_5_LITERAL.get((which, d))))
            rows.append({'case': f'trajectory {which}, {d:g} s', 'ours': ours.tolist(),
                         'thesis': list(thesis), 'digest': None if digest is None
                         else list(digest)})
        tables[name] = rows
    return tables
