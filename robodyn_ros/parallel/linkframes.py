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
Link-by-link Newton-Euler in frames attached to each link: what one link's worker computes.

The recursion is written for a frame ``F_i`` rigidly attached to each body
and a point ``J_i`` on the joint axis (seed 000 Sec. 2.3, Luh-Walker-Paul,
generalised):

* forward: ``w = R^T w_p + z qd``, ``dw = R^T dw_p + z qdd + (R^T w_p) x z qd``
  (revolute), ``a_J = R^T (a_p + L_p r_in)`` (plus ``z qdd + 2 w x z qd`` for a
  prismatic joint) and ``a = a_J + L r_out``, with ``L = S(dw) + S(w)^2``;
* per link: ``F = m (a + L s)``, ``N = I dw + w x I w``;
* backward: ``f = F + sum R_c f_c``, ``n = N + (r_out + s) x F + sum (R_c n_c
  + (r_out + r_in_c) x R_c f_c)`` about ``J_i``; ``tau = n . z`` or ``f . z``;

where ``r_in`` runs from the parent's frame origin to ``J_i`` (parent axes)
and ``r_out`` from ``J_i`` to the link's frame origin (own axes). Two choices
of frames:

* ``'body'``: the model's body frames (origin on the joint axis, ``r_out =
  0``); any model, trees included;
* ``'dh'``: the standard Denavit-Hartenberg frames of a model built from a
  standard DH table (``frame<i>``, at the far end of link i), with ``J_i`` on
  the joint axis where frame i-1 sits: exactly Luh-Walker-Paul, the
  formulation of seed 000, whose prediction errors depend on these frames.
"""

from dataclasses import dataclass

import numpy as np

from ..dynamics.rne import joint_transforms
from ..dynamics.tables import tables
from ..errors import InputError

#: Frame choices.
FRAMES = ('body', 'dh')


@dataclass(frozen=True, eq=False)
class LinkFrames:
    """
    Constant data of every link in its attached frame.

    Attributes
    ----------
    model : RobotModel
        The robot.
    kind : str
        ``'body'`` or ``'dh'``.
    parents : tuple of int
        Parent of each link (-1: base).
    children : tuple of tuple of int
        Children of each link.
    prismatic : numpy.ndarray
        Prismatic joints, (n,) bool.
    axis : numpy.ndarray
        Joint axis ``z`` in the attached frame, (n, 3).
    com : numpy.ndarray
        Centre of mass from the frame origin, attached axes, (n, 3) [m].
    inertia : numpy.ndarray
        Inertia about the centre of mass, attached axes, (n, 3, 3) [kg m^2].
    mass : numpy.ndarray
        Masses, (n,) [kg].
    frame_rot, frame_pos : numpy.ndarray
        Attached frame in the body frame: axes (n, 3, 3), origin (n, 3) [m].
    gravity : numpy.ndarray
        Gravity in the base frame, (3,) [m/s^2].

    """

    model: object
    kind: str
    parents: tuple
    children: tuple
    prismatic: np.ndarray
    axis: np.ndarray
    com: np.ndarray
    inertia: np.ndarray
    mass: np.ndarray
    frame_rot: np.ndarray
    frame_pos: np.ndarray
    gravity: np.ndarray

    @property
    def n(self):
        """Link count (int)."""
        return len(self.parents)

    def transforms(self, q):
        """
        Joint-dependent geometry of every link.

        Parameters
        ----------
        q : numpy.ndarray
            Positions, (N, n) [rad or m].

        Returns
        -------
        tuple of numpy.ndarray
            ``R`` (N, n, 3, 3): frame i in frame parent(i); ``r_in`` (N, n, 3):
            parent frame origin to ``J_i``, parent axes [m]; ``r_out`` (N, n,
            3): ``J_i`` to frame i origin, own axes [m].

        """
        tab = tables(self.model)
        rot_b, pos_b = joint_transforms(tab, q)
        count = q.shape[0]
        rot = np.empty((count, self.n, 3, 3))
        r_in = np.empty((count, self.n, 3))
        r_out = np.empty((count, self.n, 3))
        for i in range(self.n):
            p = self.parents[i]
            rc_p = self.frame_rot[p] if p >= 0 else np.eye(3)
            tc_p = self.frame_pos[p] if p >= 0 else np.zeros(3)
            rc, tc = self.frame_rot[i], self.frame_pos[i]
            rot[:, i] = rc_p.T @ rot_b[:, i] @ rc
            if self.kind == 'body':
                joint_point = pos_b[:, i]
            else:
                joint = self.model.joints[i]
                u = joint.rotation @ joint.axis
                base = joint.translation
                joint_point = np.broadcast_to(base + np.dot(tc_p - base, u) * u, (count, 3))
            r_in[:, i] = (joint_point - tc_p) @ rc_p
            local = tc + np.einsum('nji,nj->ni', rot_b[:, i], pos_b[:, i] - joint_point)
            r_out[:, i] = local @ rc
        return rot, r_in, r_out


def link_frames(model, kind='body', gravity=None):
    """
    Attached frames of a model for the link-by-link recursion.

    Parameters
    ----------
    model : RobotModel
        The robot.
    kind : {'body', 'dh'}
        ``'dh'`` needs a serial model built from a standard DH table.
    gravity : array_like, optional
        Gravity vector in the base frame [m/s^2] (default: the model's).

    Returns
    -------
    LinkFrames
        The frames.

    Raises
    ------
    InputError
        For an unknown kind, or ``'dh'`` on a model without a standard DH table.

    """
    if kind not in FRAMES:
        raise InputError('frames', f"must be one of {', '.join(FRAMES)}, got {kind!r}")
    n = model.n
    parents = tuple(j.parent for j in model.joints)
    frame_rot = np.tile(np.eye(3), (n, 1, 1))
    frame_pos = np.zeros((n, 3))
    if kind == 'dh':
        dh = getattr(model, 'dh', None)
        if dh is None or dh.convention != 'standard' or parents != tuple(range(-1, n - 1)):
            raise InputError('frames', "'dh' needs a serial model built from a standard DH "
                                       f'table; {model.name!r} is not one (use frames=body)')
        for i in range(n):
            frame = model.frame(f'frame{i + 1}')
            frame_rot[i] = frame.rotation
            frame_pos[i] = frame.translation
    children = tuple(tuple(c for c in range(n) if parents[c] == i) for i in range(n))
    com = np.array([(ine.com - frame_pos[i]) @ frame_rot[i]
                    for i, ine in enumerate(model.inertials)])
    inertia = np.array([frame_rot[i].T @ ine.inertia @ frame_rot[i]
                        for i, ine in enumerate(model.inertials)])
    axis = np.array([j.axis @ frame_rot[i] for i, j in enumerate(model.joints)])
    g = model.gravity if gravity is None else np.asarray(gravity, dtype=float).reshape(3)
    return LinkFrames(model, kind, parents, children,
                      np.array([j.is_prismatic for j in model.joints]), axis, com, inertia,
                      np.array([ine.mass for ine in model.inertials]), frame_rot, frame_pos,
                      np.array(g, dtype=float))
