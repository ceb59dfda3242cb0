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
Computed torque with on-line load-mass estimation (seed 003 ch. 4 and 6.7, "CT+LME").

Every sample the payload estimator takes the measured positions and the
torque applied over the last sample, updates the mass estimate, and the
computed-torque law uses the model with that payload (Fig. 6.7 of the
thesis: the LME broadcasts the estimate to the joint controllers, which
update M and Q; the rest is computed torque). The estimator is a part
composed into :class:`~robodyn_ros.control.computed_torque.ComputedTorque`,
whose one sample runs it.
"""

import numpy as np

from .computed_torque import ComputedTorque
from .filters import SEED003_REALTIME
from .payload import PayloadEstimator, PayloadModel
from ..errors import InputError


class ComputedTorqueLME(ComputedTorque):
    """
    Computed torque whose model carries an estimated payload.

    Parameters
    ----------
    model : RobotModel
        The controller's model without the payload.
    period : float
        Sample period [s].
    kp, kd, omega, zeta, form, ki, compiled
        As for :class:`~robodyn_ros.control.computed_torque.ComputedTorque`.
    payload_frame : str, optional
        Frame the payload is fixed to (default the end effector).
    payload_com : array_like
        Payload centre of mass in that frame [m].
    initial_mass : float
        Initial estimate [kg] (seed 003: 1.5 kg).
    forgetting : float
        RLS forgetting factor (seed 003: about 0.98 for the load estimator).
    variance : float
        Initial RLS variance [kg^2].
    mass_bounds : tuple of float
        Bounds of the estimate [kg].
    estimator_joints : sequence of int
        Joints whose equations feed the estimator (seed 003: the waist, 0).
    filter_coefficients : sequence of float
        State-variable filter ``C(s)``, highest power first.
    adapt : bool
        Update the estimate (False freezes it at ``initial_mass``).
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    """

    law = 'computed_torque_lme'
    law_options = ('payload_frame', 'initial_mass', 'forgetting', 'estimator_joints')
    option_arguments = {'theta0': 'initial_mass', 'joints': 'estimator_joints'}

    def __init__(self, model, period, kp=None, kd=None, *, omega=None, zeta=1.0,
                 form='tracking', ki=0.0, payload_frame=None, payload_com=(0.0, 0.0, 0.0),
                 initial_mass=0.0, forgetting=0.98, variance=100.0, mass_bounds=(0.0, 50.0),
                 estimator_joints=(0,), filter_coefficients=SEED003_REALTIME, adapt=True,
                 compiled=True, **kwargs):
        super().__init__(model, period, kp, kd, omega=omega, zeta=zeta, form=form, ki=ki,
                         compiled=compiled, **kwargs)
        payload = PayloadModel(model, payload_frame, payload_com, dynamics=self.dynamics)
        estimator = PayloadEstimator(
            payload, self.period, initial=initial_mass, variance=variance,
            forgetting=forgetting, bounds=mass_bounds, joints=estimator_joints,
            filter_coefficients=filter_coefficients, compiled=compiled)
        self.adapt = bool(adapt)
        self._attach_estimator(payload, estimator, self.adapt)

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        frame = opts.get('payload_frame')
        if frame is not None:
            if frame not in model.frame_names:
                raise InputError('payload_frame', f'no frame {frame!r} in {model.name} '
                                                  f'(frames: {", ".join(model.frame_names)})')
            kwargs['payload_frame'] = frame
        for key in ('initial_mass', 'forgetting'):
            if key in opts:
                kwargs[key] = opts[key]
        if 'estimator_joints' in opts:
            kwargs['estimator_joints'] = tuple(np.atleast_1d(opts['estimator_joints']))
        return kwargs

    @property
    def mass(self):
        """Give the current payload estimate [kg] (float)."""
        return self.estimator.mass
