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
Spatial (6D) algebra in Featherstone's angular-first convention, batched.

A motion vector is ``(omega, v)`` and a force vector ``(n, f)``; 6x6 arrays
carry a leading batch axis ``(N, 6, 6)``.
"""

import numpy as np


def skew_batch(v):
    """
    Cross-product matrices of a batch of 3-vectors.

    Parameters
    ----------
    v : numpy.ndarray
        Vectors, (..., 3).

    Returns
    -------
    numpy.ndarray
        Matrices, (..., 3, 3).

    """
    out = np.zeros(v.shape[:-1] + (3, 3))
    out[..., 0, 1] = -v[..., 2]
    out[..., 0, 2] = v[..., 1]
    out[..., 1, 0] = v[..., 2]
    out[..., 1, 2] = -v[..., 0]
    out[..., 2, 0] = -v[..., 1]
    out[..., 2, 1] = v[..., 0]
    return out


def child_transform(rot, pos):
    """
    Motion transform from parent to child coordinates, ``iXp``.

    Parameters
    ----------
    rot : numpy.ndarray
        Child orientation in the parent frame, (N, 3, 3).
    pos : numpy.ndarray
        Child origin in the parent frame, (N, 3) [m].

    Returns
    -------
    numpy.ndarray
        ``[[R^T, 0], [-R^T p^, R^T]]``, (N, 6, 6).

    """
    rt = np.swapaxes(rot, -1, -2)
    x = np.zeros(rot.shape[:-2] + (6, 6))
    x[..., :3, :3] = rt
    x[..., 3:, 3:] = rt
    x[..., 3:, :3] = -rt @ skew_batch(pos)
    return x


def body_inertia(mass, first_moment, inertia_origin):
    """
    Spatial inertia of a body about its frame origin.

    Parameters
    ----------
    mass : float
        Mass [kg].
    first_moment : numpy.ndarray
        ``m c``, (3,) [kg m].
    inertia_origin : numpy.ndarray
        Rotational inertia about the origin, (3, 3) [kg m^2].

    Returns
    -------
    numpy.ndarray
        ``[[I_O, (m c)^], [(m c)^T, m E]]``, (6, 6).

    """
    h = skew_batch(np.asarray(first_moment, dtype=float))
    out = np.zeros((6, 6))
    out[:3, :3] = inertia_origin
    out[:3, 3:] = h
    out[3:, :3] = h.T
    out[3:, 3:] = mass * np.eye(3)
    return out


def cross_motion(v):
    """
    Motion cross-product matrices ``v x``.

    Parameters
    ----------
    v : numpy.ndarray
        Motion vectors, (..., 6).

    Returns
    -------
    numpy.ndarray
        Matrices, (..., 6, 6).

    """
    w = skew_batch(v[..., :3])
    out = np.zeros(v.shape[:-1] + (6, 6))
    out[..., :3, :3] = w
    out[..., 3:, 3:] = w
    out[..., 3:, :3] = skew_batch(v[..., 3:])
    return out


def cross_force(v):
    """
    Force cross-product matrices ``v x*`` (equal to ``-(v x)^T``).

    Parameters
    ----------
    v : numpy.ndarray
        Motion vectors, (..., 6).

    Returns
    -------
    numpy.ndarray
        Matrices, (..., 6, 6).

    """
    return -np.swapaxes(cross_motion(v), -1, -2)


def motion_subspace(tab):
    """
    Joint motion subspaces in body coordinates.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.

    Returns
    -------
    numpy.ndarray
        ``S`` per joint, (n, 6): ``(axis, 0)`` revolute, ``(0, axis)`` prismatic.

    """
    s = np.zeros((tab.n, 6))
    for i in range(tab.n):
        if tab.prismatic[i]:
            s[i, 3:] = tab.axis[i]
        else:
            s[i, :3] = tab.axis[i]
    return s


def spatial_inertias(tab):
    """
    Spatial inertia of every body about its origin.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.

    Returns
    -------
    numpy.ndarray
        (n, 6, 6).

    """
    return np.array([body_inertia(tab.mass[i], tab.first_moment[i], tab.inertia_origin[i])
                     for i in range(tab.n)]).reshape(tab.n, 6, 6)
