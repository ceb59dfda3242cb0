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
Rigid-body inertial parameters: mass, centre of mass and inertia tensor.

The inertia tensor is taken about the centre of mass, in axes parallel to the
body frame [kg m^2]; the centre of mass is in the body frame [m].
"""

from dataclasses import dataclass

import numpy as np

from ..errors import InvalidInertiaError, NonFiniteValueError, NonPositiveMassError

#: Relative tolerance of the symmetry, definiteness and triangle checks.
INERTIA_RTOL = 1e-6


@dataclass(frozen=True, eq=False)
class Inertial:
    """
    Mass properties of one rigid body.

    Attributes
    ----------
    mass : float
        Mass [kg].
    com : numpy.ndarray
        Centre of mass in the body frame, shape (3,) [m].
    inertia : numpy.ndarray
        Inertia tensor about the centre of mass, body axes, shape (3, 3)
        [kg m^2].

    """

    mass: float
    com: np.ndarray
    inertia: np.ndarray

    def __post_init__(self):
        com = np.array(self.com, dtype=float).reshape(3)
        inertia = np.array(self.inertia, dtype=float).reshape(3, 3)
        com.setflags(write=False)
        inertia.setflags(write=False)
        object.__setattr__(self, 'mass', float(self.mass))
        object.__setattr__(self, 'com', com)
        object.__setattr__(self, 'inertia', inertia)

    @classmethod
    def zero(cls):
        """
        Return a massless body.

        Returns
        -------
        Inertial
            Zero mass, centre of mass at the origin, zero inertia.

        """
        return cls(0.0, np.zeros(3), np.zeros((3, 3)))

    @property
    def first_moment(self):
        """
        Mass times centre of mass, ``m c`` [kg m].

        Returns
        -------
        numpy.ndarray
            Shape (3,).

        """
        return self.mass * self.com

    @property
    def inertia_at_origin(self):
        """
        Inertia about the body-frame origin, ``I_c + m (|c|^2 E - c c^T)`` [kg m^2].

        Returns
        -------
        numpy.ndarray
            Shape (3, 3).

        """
        c = self.com
        return self.inertia + self.mass * (np.dot(c, c) * np.eye(3) - np.outer(c, c))

    def transformed(self, rot, trans):
        """
        Express this body in another frame.

        Parameters
        ----------
        rot : array_like
            Rotation from this body's frame to the new frame.
        trans : array_like
            Origin of this body's frame in the new frame [m].

        Returns
        -------
        Inertial
            Same body, coordinates in the new frame.

        """
        r = np.asarray(rot, dtype=float)
        return Inertial(self.mass, r @ self.com + np.asarray(trans, dtype=float),
                        r @ self.inertia @ r.T)

    def combined(self, other):
        """
        Rigidly join two bodies expressed in the same frame.

        Parameters
        ----------
        other : Inertial
            Second body, same frame.

        Returns
        -------
        Inertial
            The composite body.

        """
        m = self.mass + other.mass
        if m == 0.0:
            # Massless bodies (as descriptions may have them) keep their rotational
            # inertia, a pure couple about any point.
            return Inertial(0.0, np.zeros(3), self.inertia_at_origin + other.inertia_at_origin)
        c = (self.mass * self.com + other.mass * other.com) / m
        total = np.zeros((3, 3))
        for body in (self, other):
            d = body.com - c
            total += body.inertia + body.mass * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
        return Inertial(m, c, total)

    def is_zero(self):
        """
        Tell whether the body has no mass and no inertia.

        Returns
        -------
        bool
            True for a massless body.

        """
        return self.mass == 0.0 and not np.any(self.inertia)

    def __repr__(self):
        return (f'Inertial(mass={self.mass:g}, com={np.round(self.com, 6).tolist()}, '
                f'inertia={np.round(self.inertia, 6).tolist()})')


#: Marker for a body whose link had no ``<inertial>`` at all (set by loaders).
_MISSING = Inertial.zero()


def missing_inertial():
    """
    Return the marker for a link without inertial data.

    Returns
    -------
    Inertial
        A zero body that the model validation reports as "missing inertial".

    """
    return _MISSING


def is_missing_inertial(inertial):
    """
    Tell whether a body is the marker of :func:`missing_inertial`.

    Parameters
    ----------
    inertial : Inertial
        A body.

    Returns
    -------
    bool
        True only for the marker itself (not for other zero bodies).

    """
    return inertial is _MISSING


def check_inertial(inertial, element, source=None, strict=True):
    """
    Validate mass, centre of mass and inertia tensor of one body.

    Parameters
    ----------
    inertial : Inertial
        Body to check.
    element : str
        Name used in error messages, e.g. ``"link 'forearm'"``.
    source : str, optional
        File the body came from.
    strict : bool
        Raise on the first broken rule of physical consistency (negative
        mass, a massless body with inertia, a tensor that is not positive
        semidefinite or breaks the triangle inequality); otherwise return
        them. NaN, inf and asymmetric tensors always raise.

    Returns
    -------
    list of ModelError
        The broken rules (empty when the body is physical); only when not
        ``strict``.

    Raises
    ------
    NonFiniteValueError
        NaN or inf anywhere.
    NonPositiveMassError
        Negative mass, or zero mass with a non-zero inertia tensor (strict).
    InvalidInertiaError
        Tensor not symmetric; not positive semidefinite, or principal
        moments breaking the triangle inequality (strict).

    """
    if not np.isfinite(inertial.mass):
        raise NonFiniteValueError('mass must be finite', source, element, 'mass', inertial.mass)
    if not np.all(np.isfinite(inertial.com)):
        raise NonFiniteValueError('centre of mass must be finite', source, element, 'com',
                                  inertial.com.tolist())
    if not np.all(np.isfinite(inertial.inertia)):
        raise NonFiniteValueError('inertia must be finite', source, element, 'inertia',
                                  inertial.inertia.tolist())
    i = inertial.inertia
    scale = max(float(np.max(np.abs(i))), 1e-300)
    if np.max(np.abs(i - i.T)) > INERTIA_RTOL * scale:
        raise InvalidInertiaError('inertia tensor is not symmetric', source, element,
                                  'inertia', np.round(i, 9).tolist())
    problems = _physical_problems(inertial, element, source, scale)
    if strict and problems:
        raise problems[0]
    return problems


def _physical_problems(inertial, element, source, scale):
    """Return the rules of physical consistency that a (finite, symmetric) body breaks."""
    i = inertial.inertia
    if inertial.mass < 0.0:
        return [NonPositiveMassError('mass must not be negative', source, element, 'mass',
                                     inertial.mass)]
    if inertial.mass == 0.0:
        if np.max(np.abs(i)) > 0.0:
            return [NonPositiveMassError(
                'zero mass with a non-zero inertia tensor (a massless body has no inertia)',
                source, element, 'mass', inertial.mass)]
        return []
    moments = np.linalg.eigvalsh((i + i.T) / 2.0)
    if moments[0] < -INERTIA_RTOL * scale:
        return [InvalidInertiaError(
            f'inertia tensor is not positive definite (principal moments '
            f'{np.round(moments, 9).tolist()})', source, element, 'inertia',
            np.round(i, 9).tolist())]
    a, b, c = np.sort(moments)
    if a + b < c - INERTIA_RTOL * scale:
        return [InvalidInertiaError(
            f'principal moments {[round(float(v), 9) for v in (a, b, c)]} break the '
            f'triangle inequality ({a:.6g} + {b:.6g} < {c:.6g})', source, element, 'inertia',
            np.round(i, 9).tolist())]
    return []
