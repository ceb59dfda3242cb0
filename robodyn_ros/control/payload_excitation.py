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
The payload estimator's freeze rule: hold the estimate while the data do not excite it.

At rest, Coulomb friction carries part of the load and the torque no longer
tells the payload's weight; at constant velocity the equations carry only
static torques that such an unmodelled torque imitates. The estimate
reached while the arm moved is kept: :func:`excitation_step` measures the
excitation, the windowed mean square of the inertial part of the estimating
joints' regressor [(N m/kg)^2], and tells the estimator's sample
(:func:`~.payload.estimator_sample`) when to hold the estimate and its
variance. It works in place on the fields ``steps``, ``window``,
``excitation``, ``freeze_below`` and ``frozen`` of the estimator's record
(:func:`~.payload.estimator_dtype`), in loop form (compiled with numba, see
:mod:`.jit`).
"""

from .jit import jitable


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
