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
The inverse dynamics written linear in the parameters, ``tau = Y(q, qd, qdd) theta``.

Standard parameters per body, in Khalil's order, about the body-frame origin
and in body axes (seed 001 §7.4): ``XX, XY, XZ, YY, YZ, ZZ`` (inertia
tensor entries, products with their sign as matrix elements) [kg m^2],
``MX, MY, MZ`` (first moments ``m c``) [kg m] and ``M`` [kg]; then per joint
the rotor inertia ``Ia`` and the friction coefficients. Load-dependent
friction (bearings, transmissions) is not linear in any parameter and is not
part of the regressor.
"""

import numpy as np

from .inputs import state_array
from .rne import motion_pass
from .spatial import child_transform, motion_subspace, skew_batch
from .tables import tables
from ..errors import InputError
from ..friction.models import smooth_sign

INERTIAL_NAMES = ('XX', 'XY', 'XZ', 'YY', 'YZ', 'ZZ', 'MX', 'MY', 'MZ', 'M')


def friction_layout(model, friction='auto'):
    """
    Friction columns of the regressor for a model.

    Parameters
    ----------
    model : RobotModel
        The model.
    friction : {'auto', 'symmetric', 'asymmetric', 'none'}
        ``'symmetric'``: ``Fc, Fv`` per joint; ``'asymmetric'``: ``Fc+,
        Fc-, Fv+, Fv-``; both add ``dFs`` (``dFs+, dFs-``), the Stribeck
        excess ``Fs - Fc``, on joints that have a Stribeck term. ``'auto'``
        picks ``'asymmetric'`` if any joint's friction differs by direction.

    Returns
    -------
    str
        The resolved layout.

    """
    if friction not in ('auto', 'symmetric', 'asymmetric', 'none'):
        raise InputError('friction', "must be 'auto', 'symmetric', 'asymmetric' or 'none'")
    if friction != 'auto':
        return friction
    for j in model.joints:
        f = j.friction
        if (f.coulomb_pos != f.coulomb_neg or f.viscous_pos != f.viscous_neg
                or (f.has_stribeck and f.static_pos != f.static_neg)):
            return 'asymmetric'
    return 'symmetric'


def parameter_names(model, friction='auto'):
    """
    Names of the standard parameters, in regressor column order.

    Parameters
    ----------
    model : RobotModel
        The model.
    friction : str
        Friction layout (see :func:`friction_layout`).

    Returns
    -------
    list of str
        E.g. ``'upper_arm_link.XX'``, ``'elbow_joint.Ia'``, ``'elbow_joint.Fc+'``.

    """
    layout = friction_layout(model, friction)
    names = [f'{j.link}.{p}' for j in model.joints for p in INERTIAL_NAMES]
    names += [f'{j.name}.Ia' for j in model.joints]
    for j in model.joints:
        names += [f'{j.name}.{p}' for p in _friction_params(j, layout)]
    return names


def _friction_params(joint, layout):
    if layout == 'none':
        return []
    stribeck = joint.friction.has_stribeck
    if layout == 'symmetric':
        return ['Fc', 'Fv'] + (['dFs'] if stribeck else [])
    return ['Fc+', 'Fc-', 'Fv+', 'Fv-'] + (['dFs+', 'dFs-'] if stribeck else [])


def parameter_vector(model, friction='auto'):
    """
    Collect the model's standard parameter vector ``theta``.

    Parameters
    ----------
    model : RobotModel
        The model.
    friction : str
        Friction layout (see :func:`friction_layout`).

    Returns
    -------
    numpy.ndarray
        Values in the order of :func:`parameter_names`.

    Raises
    ------
    InputError
        If ``'symmetric'`` is asked for a model whose friction is not.

    """
    layout = friction_layout(model, friction)
    values = []
    for body in model.inertials:
        i = body.inertia_at_origin
        values += [i[0, 0], i[0, 1], i[0, 2], i[1, 1], i[1, 2], i[2, 2]]
        values += list(body.first_moment) + [body.mass]
    values += [j.actuator.armature for j in model.joints]
    for j in model.joints:
        f = j.friction
        if layout == 'symmetric':
            if f.coulomb_pos != f.coulomb_neg or f.viscous_pos != f.viscous_neg or (
                    f.has_stribeck and f.static_pos != f.static_neg):
                raise InputError('friction', f'joint {j.name!r} has asymmetric friction; '
                                             'use the asymmetric layout')
            values += [f.coulomb_pos, f.viscous_pos]
            if f.has_stribeck:
                values.append(f.static_pos - f.coulomb_pos)
        elif layout == 'asymmetric':
            values += [f.coulomb_pos, f.coulomb_neg, f.viscous_pos, f.viscous_neg]
            if f.has_stribeck:
                values += [f.static_pos - f.coulomb_pos, f.static_neg - f.coulomb_neg]
    return np.array(values, dtype=float)


def _inertial_block(a, w, dw):
    """Body wrench (moment; force) as a linear map of the 10 parameters, (N, 6, 10)."""
    count = a.shape[0]
    out = np.zeros((count, 6, 10))

    def lmap(x):
        m = np.zeros((count, 3, 6))
        m[:, 0, 0], m[:, 0, 1], m[:, 0, 2] = x[:, 0], x[:, 1], x[:, 2]
        m[:, 1, 1], m[:, 1, 3], m[:, 1, 4] = x[:, 0], x[:, 1], x[:, 2]
        m[:, 2, 2], m[:, 2, 4], m[:, 2, 5] = x[:, 0], x[:, 1], x[:, 2]
        return m

    w_hat, dw_hat, a_hat = skew_batch(w), skew_batch(dw), skew_batch(a)
    out[:, :3, :6] = lmap(dw) + w_hat @ lmap(w)
    out[:, :3, 6:9] = -a_hat
    out[:, 3:, 6:9] = dw_hat + w_hat @ w_hat
    out[:, 3:, 9] = a
    return out


def regressor(model, q, qd, qdd, *, friction='auto', gravity=True):
    """
    Regressor ``Y`` with ``inverse_dynamics(q, qd, qdd) = Y theta``.

    Holds for models without load-dependent friction; ``theta`` is
    :func:`parameter_vector`.

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd, qdd : array_like
        States, (n,) or (N, n).
    friction : str
        Friction layout (see :func:`friction_layout`).
    gravity : bool
        Include gravity.

    Returns
    -------
    numpy.ndarray
        (n, p) or (N, n, p), columns as :func:`parameter_names`.

    """
    qa = state_array(q, model.n, 'q')
    qda = state_array(qd, model.n, 'qd', qa.shape)
    qdda = state_array(qdd, model.n, 'qdd', qa.shape)
    single = qa.ndim == 1
    q2, qd2, qdd2 = (np.atleast_2d(v) for v in (qa, qda, qdda))
    layout = friction_layout(model, friction)
    tab = tables(model)
    count, n = q2.shape
    mp = motion_pass(tab, q2, qd2, qdd2, gravity)
    x = child_transform(mp.rot, mp.pos)
    s = motion_subspace(tab)
    w, dw, acc = mp.w, mp.dw, mp.acc
    names = parameter_names(model, layout)
    y = np.zeros((count, n, len(names)))
    for i in range(n):
        block = _inertial_block(acc[:, i], w[:, i], dw[:, i])
        k = i
        while k >= 0:
            y[:, k, 10 * i:10 * i + 10] = np.einsum('j,njp->np', s[k], block)
            if tab.parent[k] >= 0:
                block = np.swapaxes(x[:, k], -1, -2) @ block
            k = tab.parent[k]
    col = 10 * n
    for j in range(n):
        y[:, j, col + j] = qdd2[:, j]
    col += n
    sgn = smooth_sign(qd2, tab.smoothing_velocity)
    decay = np.exp(-np.abs(qd2) / tab.stribeck_velocity)
    for j, joint in enumerate(model.joints):
        for p in _friction_params(joint, layout):
            v, sj, e = qd2[:, j], sgn[:, j], decay[:, j]
            y[:, j, col] = {
                'Fc': sj, 'Fv': v, 'dFs': sj * e,
                'Fc+': np.maximum(sj, 0.0), 'Fc-': np.minimum(sj, 0.0),
                'Fv+': np.maximum(v, 0.0), 'Fv-': np.minimum(v, 0.0),
                'dFs+': np.maximum(sj, 0.0) * e, 'dFs-': np.minimum(sj, 0.0) * e,
            }[p]
            col += 1
    return y[0] if single else y
