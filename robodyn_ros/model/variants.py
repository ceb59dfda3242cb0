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
Derived models of a :class:`~robodyn_ros.model.RobotModel`: new joints, bodies, payload or gravity.

:class:`VariantsMixin` builds every variant through the host's
``replace(**changes)``, which returns a validated copy with some constructor
arguments changed; the original model is never modified.
"""

import numpy as np

from .inertial import Inertial
from ..errors import NonPositiveMassError


class VariantsMixin:
    """Copies of a model with some data changed (the host provides ``replace``)."""

    def replace_joints(self, joints):
        """
        Return a copy with new joint records (same tree).

        Parameters
        ----------
        joints : sequence of Joint
            Replacement records, same names and order.

        Returns
        -------
        RobotModel
            The new model.

        """
        return self.replace(joints=tuple(joints))

    def replace_inertials(self, inertials):
        """
        Return a copy with new body mass properties.

        Parameters
        ----------
        inertials : sequence of Inertial
            One per body.

        Returns
        -------
        RobotModel
            The new model.

        """
        return self.replace(inertials=tuple(inertials))

    def with_payload(self, mass, com=(0.0, 0.0, 0.0), inertia=None, frame=None):
        """
        Return a copy carrying a rigid payload.

        Parameters
        ----------
        mass : float
            Payload mass [kg] (negative values remove mass, as long as each
            body keeps a positive mass).
        com : array_like
            Payload centre of mass in ``frame`` [m].
        inertia : array_like, optional
            Payload inertia about its centre of mass, ``frame`` axes
            [kg m^2]; a point mass if omitted.
        frame : str, optional
            Frame the payload is fixed to; default: the last body.

        Returns
        -------
        RobotModel
            The new model.

        """
        f = self.frame(frame if frame is not None else self.joints[-1].link)
        if f.body < 0:
            return self
        load = Inertial(mass, com, np.zeros((3, 3)) if inertia is None else inertia)
        load = load.transformed(f.rotation, f.translation)
        inertials = list(self.inertials)
        total = inertials[f.body].combined(load)
        if total.mass <= 0.0:
            raise NonPositiveMassError('removing the payload leaves no mass', self.source,
                                       f'link {self.joints[f.body].link!r}', 'mass',
                                       total.mass)
        inertials[f.body] = total
        return self.replace_inertials(inertials)

    def with_gravity(self, gravity):
        """
        Return a copy with another gravity vector.

        Parameters
        ----------
        gravity : array_like
            Gravity in the root frame [m/s^2].

        Returns
        -------
        RobotModel
            The new model.

        """
        return self.replace(gravity=np.array(gravity, dtype=float))
