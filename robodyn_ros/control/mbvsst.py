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
Model-based variable-structure self-tuning control (seed 003's MBVSST).

Computed torque with on-line load-mass estimation decouples the joints;
a variable-structure self-tuner per joint (:mod:`.vsst`) adds its relay
output, and the two are summed before saturation (seed 003 ch. 6.8, 7.4.3:
"the model-based input and the VSST input are added and passed to the
DAC")::

    tau = IDM(q, qd, w; m_hat) + torque_scale * u_vsst

Defaults follow the thesis where they apply: CT gains ``Kp = 1600``, ``Kv =
80`` (those of :class:`~.computed_torque_lme.ComputedTorqueLME` too); the
load estimator's defaults (:class:`~.payload.PayloadEstimatorSettings`,
measured on the demo's arm: the gravity-loaded joints' equations, a ``(0.02
s + 1)^2`` filter, the thesis's memory at the law's rate, held at rest;
the thesis's own is :data:`~.payload.SEED003_ESTIMATOR`); the tuner's Appendix C
parameters (:class:`~.vsst.SelfTunerSettings`: ``A = (s + 1)^2``, ``B = 1``,
``P = C = Cs = s + 1``, ``Q = 0``, ``R = 1``, initial variance 1e5,
forgetting time 1000 s, output +-10 switched). The tuner's volts have no
torque equivalent in the thesis (the MA3000's drive constants are not
printed): ``torque_scale`` maps the tuner's unit to N m; its default makes
the relay amplitude 5 % of each joint's effort limit.

The relay earns its place where torques remain that the model and the
estimate do not explain (unmodelled friction: ``docs/results.md`` §3); where
the model with the estimated payload and a friction-compensating drive
leave none (the demo's arm), it can only add its switching to CT+LME's
errors (``docs/results.md`` §8: 17 % more RMS error at 5 %).
"""

import numpy as np

from .checks import per_joint
from .computed_torque_lme import ComputedTorqueLME
from .vsst import SelfTunerSettings, VariableStructureSelfTuner
from ..errors import InputError

#: Relay amplitude of the default ``torque_scale``, as a fraction of the torque limit.
DEFAULT_RELAY_FRACTION = 0.05


def relay_scale(model, fraction, u_max=SelfTunerSettings.u_max):
    """
    Torque per tuner unit that makes the relay ``fraction`` of each effort limit.

    Parameters
    ----------
    model : RobotModel
        Model with finite effort limits.
    fraction : float
        Relay amplitude over the effort limit (>= 0).
    u_max : float
        Tuner output limit [tuner units] (default Appendix C's).

    Returns
    -------
    numpy.ndarray
        (n,) [N m per tuner unit].

    Raises
    ------
    InputError
        If a joint has no finite effort limit (give ``torque_scale``).

    """
    limit = np.asarray(model.effort_limits, dtype=float)
    if not np.all(np.isfinite(limit)):
        j = int(np.argmin(np.isfinite(limit)))
        raise InputError('torque_scale', f'joint {j} has no effort limit: give the relay '
                                         'torque scale explicitly')
    if not fraction >= 0.0:
        raise InputError('relay_fraction', f'must be >= 0, got {fraction}')
    return fraction * limit / u_max


class MBVSST(ComputedTorqueLME):
    """
    CT + load estimation + per-joint variable-structure self-tuners.

    Parameters
    ----------
    model : RobotModel
        The controller's model without the payload.
    period : float
        Sample period [s] (seed 003: 1/121 s).
    kp, kd : float or array_like
        CT gains (default seed 003's 1600 and 80) [1/s^2, 1/s].
    torque_scale : float or array_like, optional
        Torque per tuner unit [N m]; default ``0.05 * effort_limit /
        u_max`` with the model's effort limits.
    vsst_joints : sequence of int, optional
        Joints with a tuner (default all).
    tuner : SelfTunerSettings
        Design of the tuners (default seed 003's Appendix C, with the
        set-point ``w = P(s) q_ref``).
    **kwargs
        Options of :class:`~robodyn_ros.control.computed_torque_lme.ComputedTorqueLME`
        (``estimator``, ``adapt``, ``omega``, ...).

    """

    law = 'mbvsst'
    law_options = ('relay_fraction', 'torque_scale', 'vsst_boundary')
    option_arguments = {**ComputedTorqueLME.option_arguments, 'boundary': 'vsst_boundary'}

    @classmethod
    def _keywords(cls, model, opts):
        kwargs = super()._keywords(model, opts)
        if 'torque_scale' in opts:
            kwargs['torque_scale'] = opts['torque_scale']
        elif 'relay_fraction' in opts:
            kwargs['torque_scale'] = relay_scale(model, opts['relay_fraction'])
        if 'vsst_boundary' in opts:
            kwargs['tuner'] = SelfTunerSettings(boundary=opts['vsst_boundary'])
        return kwargs

    def __init__(self, model, period, kp=1600.0, kd=80.0, *, torque_scale=None,
                 vsst_joints=None, tuner=SelfTunerSettings(), **kwargs):
        super().__init__(model, period, kp, kd, **kwargs)
        tn = VariableStructureSelfTuner(self.n, self.period, tuner, compiled=self._compiled)
        if torque_scale is None:
            torque_scale = relay_scale(model, DEFAULT_RELAY_FRACTION, tn.u_max)
        self.torque_scale = per_joint(torque_scale, self.n, 'torque_scale', low=0.0)
        mask = np.zeros(self.n, dtype=bool)
        mask[list(range(self.n)) if vsst_joints is None else list(vsst_joints)] = True
        self.vsst_mask = mask
        self._attach_tuner(tn, np.where(mask, self.torque_scale, 0.0))
