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
Settings of the on-line payload estimator: one checked record, and seed 003's as the thesis ran it.

:class:`PayloadEstimatorSettings` says where the payload is (frame, centre
of mass: the :class:`~.payload_model.PayloadModel`) and how its mass is
estimated (initial mass, forgetting, variance, bounds, joints, filter,
freeze rule: the :class:`~.payload.PayloadEstimator`). The load-estimating
laws take it as one argument.
"""

from dataclasses import dataclass
import math

from .checks import setting_integers, setting_number, setting_numbers
from .filters import SEED003_REALTIME
from ..errors import InputError

#: The default state-variable filter, ``C(s) = (0.02 s + 1)^2`` (five times faster than
#: seed 003's Appendix B filter, :data:`~.filters.SEED003_REALTIME`).
FAST_FILTER = (0.0004, 0.04, 1.0)

#: Memory of seed 003's load estimator [s]: forgetting 0.98 per sample at its 121 Hz.
SEED003_MEMORY = -1.0 / (121.0 * math.log(0.98))


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
        most at the model's home configuration (:func:`~.payload_model.gravity_joints`;
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
        of the payload's inertia, :func:`~.payload_excitation.excitation_step`), is below this
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

    def forgetting_at(self, period):
        """
        Return the RLS forgetting factor per sample at a sample period.

        Parameters
        ----------
        period : float
            Sample period [s].

        Returns
        -------
        float
            ``forgetting`` when set, else ``exp(-period / SEED003_MEMORY)``
            [-], seed 003's memory at this period.

        """
        if self.forgetting is not None:
            return self.forgetting
        return math.exp(-float(period) / SEED003_MEMORY)


#: Seed 003's estimator as the thesis ran it: the waist equation, forgetting 0.98 per
#: sample, the Appendix B filter ``(0.1 s + 1)^2``, never held (``dataclasses.replace``
#: it for the other fields, e.g. the initial mass).
SEED003_ESTIMATOR = PayloadEstimatorSettings(forgetting=0.98, joints=(0,),
                                             filter_coefficients=SEED003_REALTIME,
                                             freeze_threshold=0.0)
