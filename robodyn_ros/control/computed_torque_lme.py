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
whose one sample runs it; its settings are one record,
:class:`~robodyn_ros.control.payload.PayloadEstimatorSettings`.
"""

import numpy as np

from .computed_torque import ComputedTorque
from .payload import PayloadEstimator, PayloadEstimatorSettings, PayloadModel
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
    kp, kd : float or array_like
        Gains [1/s^2, 1/s]; default seed 003's 1600 and 80, the outer loop
        of all three of its laws (CT, CT+LME, MBVSST), so that CT+LME and
        MBVSST differ by the tuners alone.
    omega, zeta, form, ki, compiled
        As for :class:`~robodyn_ros.control.computed_torque.ComputedTorque`
        (``omega`` replaces the default gains).
    estimator : PayloadEstimatorSettings
        Where the payload is and how its mass is estimated (frame, centre of
        mass, initial mass, forgetting, variance, bounds, joints, filter,
        freeze); default :class:`~robodyn_ros.control.payload.PayloadEstimatorSettings`
        (seed 003's as the thesis ran it:
        :data:`~robodyn_ros.control.payload.SEED003_ESTIMATOR`).
    adapt : bool
        Update the estimate (False freezes it at the initial mass).
    **kwargs
        Passed to :class:`~robodyn_ros.control.base.Controller`.

    Attributes
    ----------
    estimator_settings : PayloadEstimatorSettings
        The settings it was built with.

    """

    law = 'computed_torque_lme'
    law_options = ('payload_frame', 'initial_mass', 'forgetting', 'estimator_joints',
                   'freeze_threshold')
    option_arguments = {'theta0': 'initial_mass', 'joints': 'estimator_joints',
                        'frame': 'payload_frame'}
    #: Without gains or omega in the options, seed 003's kp 1600, kd 80 (the defaults below).
    default_omega = None

    def __init__(self, model, period, kp=1600.0, kd=80.0, *, omega=None, zeta=1.0,
                 form='tracking', ki=0.0, estimator=PayloadEstimatorSettings(), adapt=True,
                 compiled=True, **kwargs):
        if not isinstance(estimator, PayloadEstimatorSettings):
            raise InputError('estimator', f'must be a PayloadEstimatorSettings, got '
                                          f'{estimator!r}')
        if omega is not None:
            kp = kd = None
        super().__init__(model, period, kp, kd, omega=omega, zeta=zeta, form=form, ki=ki,
                         compiled=compiled, **kwargs)
        self.estimator_settings = s = estimator
        payload = PayloadModel(model, s.frame, s.com, dynamics=self.dynamics)
        part = PayloadEstimator(
            payload, self.period, initial=s.initial_mass, variance=s.variance,
            forgetting=s.forgetting, bounds=s.mass_bounds, joints=s.joints,
            filter_coefficients=s.filter_coefficients, freeze_threshold=s.freeze_threshold,
            excitation_window=s.excitation_window, compiled=compiled)
        self.adapt = bool(adapt)
        self._attach_estimator(payload, part, self.adapt)

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        settings = {}
        frame = opts.get('payload_frame')
        if frame is not None:
            if frame not in model.frame_names:
                raise InputError('payload_frame', f'no frame {frame!r} in {model.name} '
                                                  f'(frames: {", ".join(model.frame_names)})')
            settings['frame'] = frame
        for key in ('initial_mass', 'forgetting', 'freeze_threshold'):
            if key in opts:
                settings[key] = opts[key]
        if 'estimator_joints' in opts:
            settings['joints'] = tuple(np.atleast_1d(opts['estimator_joints']))
        if settings:
            kwargs['estimator'] = PayloadEstimatorSettings(**settings)
        return kwargs

    @property
    def mass(self):
        """Give the current payload estimate [kg] (float)."""
        return self.estimator.mass
