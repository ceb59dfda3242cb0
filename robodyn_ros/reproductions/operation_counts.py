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
Operation counts of our generator next to the seeds' customized counts.

Like with like: the rigid-body inverse dynamics without friction and
armature (extras reported separately), for the same robot and parameter
structure as the seed:

* general-purpose 6R, seed 002 Table 3-1 (678/521): standard DH with generic
  non-zero, non-axis-aligned ``a, alpha, d`` and full inertia tensors;
* CMU DD Arm II, seed 002 Table 3-1 (303/226): the library robot;
* RX-90 with symmetric links in base parameters, seed 001 Table 7.6
  (160/113): the RX-90 geometry, the symmetric standard parameters of seed
  001 §1.8 (``I_O`` diagonal; ``MX2, MY2, MZ2, MY3, MZ4, MY5, MZ6``), grouped
  by :func:`.grouping.group_parameters`; Khalil's count includes the
  end-effector wrench and ``Ia3..Ia6 qdd`` (``Ia1, Ia2`` are grouped), so that
  variant is the one compared;
* PUMA 560 6-DOF, seed 004 Table 2.10 (208/152): the library robot, and the
  thesis's own parameter structure (``I_O`` diagonal, one centre-of-mass
  component per link, as in its REDUCE input).
"""

from dataclasses import replace

import numpy as np

from ..dynamics.codegen.bodies import dyn_params
from ..dynamics.codegen.expr import Graph
from ..dynamics.codegen.grouping import group_parameters
from ..dynamics.codegen.sym_rne import rne

#: Published counts of the source documents: key -> (multiplications, additions, citation).
PUBLISHED_COUNTS = {
    'general_6r': (678, 521, 'seed 002 Table 3-1, design 2 (general purpose)'),
    'cmu_dd_arm2': (303, 226, 'seed 002 Table 3-1, design 7 (DD Arm II customized)'),
    'rx90_symmetric_base': (160, 113, 'seed 001 Table 7.6 (symmetric, base parameters)'),
    'puma560': (208, 152, 'seed 004 Table 2.10, method I (PUMA 6 DOF)'),
}


def count_rne(params, f_ext=False, armature=False):
    """
    Count the rigid-body inverse dynamics of some generator data.

    Parameters
    ----------
    params : DynParams
        Model data.
    f_ext : bool
        With an end-effector wrench input.
    armature : bool
        Add ``Ia qdd``.

    Returns
    -------
    dict
        Operation counts (:meth:`.expr.Graph.count`).

    """
    g = Graph()
    n = params.n
    q, qd, qdd = g.var_array('q', n), g.var_array('qd', n), g.var_array('qdd', n)
    res = rne(g, params, q, qd, qdd, f_ext=g.var_array('fext', 6) if f_ext else None)
    tau = res.tau
    if armature:
        tau = [g.add(t, g.mul(g.const(b.armature), qdd[i]))
               for i, (t, b) in enumerate(zip(tau, params.bodies))]
    return g.count(tau)


def _random_inertia(rng):
    rot, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return rot @ np.diag(rng.uniform(0.1, 0.15, 3)) @ rot.T


def general_6r(seed=6):
    """
    Build a 6R arm with generic standard-DH geometry and full inertia tensors.

    Parameters
    ----------
    seed : int
        Random seed (fixed, so the count is reproducible).

    Returns
    -------
    RobotModel
        The model.

    """
    from ..model import RobotModel
    rng = np.random.default_rng(seed)
    rows = [{'a': rng.uniform(0.1, 0.5), 'alpha': rng.uniform(0.3, 1.2),
             'd': rng.uniform(0.1, 0.5), 'theta': 0.0, 'joint': 'R',
             'mass': rng.uniform(1.0, 5.0), 'com': rng.uniform(-0.1, 0.1, 3),
             'inertia': _random_inertia(rng)} for _ in range(6)]
    return RobotModel.from_dh(rows, convention='standard', name='general_6r')


def rx90_geometry(d3=0.45, rl4=0.45):
    """
    Build the RX-90 in Khalil's modified DH (seed 001 §1.1), placeholder inertials.

    Parameters
    ----------
    d3, rl4 : float
        ``D3`` and ``RL4`` [m] (the seed gives no numbers; 0.45 m each).

    Returns
    -------
    RobotModel
        The model.

    """
    from ..model import RobotModel
    half = np.pi / 2
    rows = [(0.0, 0.0, 0.0), (half, 0.0, 0.0), (0.0, d3, 0.0), (-half, 0.0, rl4),
            (half, 0.0, 0.0), (-half, 0.0, 0.0)]
    dh = [{'alpha': al, 'a': a, 'd': d, 'theta': 0.0, 'joint': 'R', 'mass': 1.0,
           'com': [0.0, 0.0, 0.0], 'inertia': [0.1, 0.1, 0.1]} for al, a, d in rows]
    return RobotModel.from_dh(dh, convention='modified', name='rx90_geometry')


#: First-moment components of the symmetric RX-90 links (seed 001 §1.8).
RX90_SYMMETRIC = {0: (), 1: (0, 1, 2), 2: (1,), 3: (2,), 4: (1,), 5: (2,)}


def rx90_symmetric_params(model=None, seed=90):
    """
    RX-90 generator data with symmetric standard parameters.

    Parameters
    ----------
    model : RobotModel, optional
        An RX-90 with body frames as in seed 001 (default
        :func:`rx90_geometry`).
    seed : int
        Random seed for the (generic) values of the non-zero parameters.

    Returns
    -------
    DynParams
        Standard parameters: ``I_O`` diagonal, first moments as
        :data:`RX90_SYMMETRIC`, non-zero masses and rotor inertias.

    """
    rng = np.random.default_rng(seed)
    params = dyn_params(model if model is not None else rx90_geometry())
    bodies = []
    for j, b in enumerate(params.bodies):
        h = np.zeros(3)
        comps = list(RX90_SYMMETRIC.get(j, ()))
        h[comps] = rng.uniform(0.1, 1.0, len(comps))
        body = b.with_inertial(rng.uniform(1.0, 5.0), h, np.diag(rng.uniform(0.5, 1.0, 3)))
        bodies.append(replace(body, armature=rng.uniform(0.1, 1.0)))
    return params.with_bodies(bodies)


def puma_geometry():
    """
    Build the PUMA 560 of seed 004 Table 2.1 (modified DH) with the AKB inertials.

    Returns
    -------
    RobotModel
        The model, for operation counts only: link 1 gets a token mass (the
        thesis has none) and link 3 Izz = 0.07 (AKB 0.086 breaks the triangle
        inequality).

    """
    from ..model import RobotModel
    half = np.pi / 2
    rows = [(0.0, 0.0, 0.0), (-half, 0.0, 0.2435), (0.0, 0.4318, -0.0934),
            (half, -0.0203, 0.4331), (-half, 0.0, 0.0), (half, 0.0, 0.0)]
    mass = (1.0, 17.4, 4.8, 0.82, 0.34, 0.09)
    com = ((0.0, 0.0, 0.0), (0.068, 0.006, -0.016), (0.0, -0.07, 0.014), (0.0, 0.0, -0.019),
           (0.0, 0.0, 0.0), (0.0, 0.0, 0.032))
    inertia = ((0.35, 0.35, 0.35), (0.13, 0.524, 0.539), (0.066, 0.0125, 0.07),
               (1.8e-3, 1.8e-3, 1.3e-3), (0.3e-3, 0.3e-3, 0.4e-3), (0.15e-3, 0.15e-3, 0.04e-3))
    dh = [{'alpha': al, 'a': a, 'd': d, 'theta': 0.0, 'joint': 'R', 'mass': m, 'com': c,
           'inertia': i} for (al, a, d), m, c, i in zip(rows, mass, com, inertia)]
    return RobotModel.from_dh(dh, convention='modified', name='puma560_geometry')


def puma_thesis_params(model):
    """
    PUMA 560 generator data with seed 004's parameter structure.

    Parameters
    ----------
    model : RobotModel
        A PUMA 560 (modified DH body frames).

    Returns
    -------
    DynParams
        ``I_O`` diagonal; centre of mass along x for link 2, y for link 3, z
        for links 4 and 6, at the origin for links 1 and 5 (thesis REDUCE
        input); masses and diagonals from the model.

    """
    pattern = {1: 0, 2: 1, 3: 2, 5: 2}
    params = dyn_params(model)
    bodies = []
    for j, b in enumerate(params.bodies):
        h = np.zeros(3)
        if j == 0:
            bodies.append(b.with_inertial(0.0, h, np.diag([0.0, 0.0, b.inertia[2, 2]])))
            continue
        if j in pattern:
            k = pattern[j]
            h[k] = b.first_moment[k] if b.first_moment[k] != 0.0 else 0.01 * b.mass
        bodies.append(b.with_inertial(b.mass, h, np.diag(np.diag(b.inertia))))
    return params.with_bodies(bodies)


def _library(name):
    from ..model import library
    if name not in library.names():
        return None
    try:
        return library.load(name)
    except Exception:  # the library robot may not be merged yet
        return None


def comparisons():
    """
    Our counts beside the seeds' counts.

    Returns
    -------
    list of dict
        One row per case: ``key``, ``case``, ``published`` (mult, add),
        ``citation``, ``ours`` (mult, add), ``counts`` (full counts),
        ``extra`` (a second accounting, or None) and ``note``.

    """
    rows = []

    def row(key, case, counts, note, extra=None):
        mult, add, cite = PUBLISHED_COUNTS[key]
        rows.append({'key': key, 'case': case, 'published': (mult, add), 'citation': cite,
                     'ours': None if counts is None else (counts['mul'], counts['add']),
                     'counts': counts, 'extra': extra, 'note': note})

    gen = dyn_params(general_6r())
    row('general_6r', 'general 6R (standard DH, full inertia)', count_rne(gen),
        'rigid body, no wrench', {'with wrench': count_rne(gen, f_ext=True)})
    dd = _library('cmu_dd_arm2')
    row('cmu_dd_arm2', 'CMU DD Arm II (library)', None if dd is None else count_rne(
        dyn_params(dd)), 'rigid body, no wrench' if dd else 'library robot not available')
    rx = _library('rx90')
    sym = rx90_symmetric_params(rx if rx is not None and rx.dh is not None
                                and rx.dh.convention == 'modified' else None)
    base = group_parameters(sym)
    row('rx90_symmetric_base', 'RX-90 symmetric, base parameters',
        count_rne(base, f_ext=True, armature=True),
        "Khalil's accounting: with wrench and Ia3..Ia6 qdd (Ia1, Ia2 grouped)",
        {'rigid only': count_rne(base), 'standard parameters': count_rne(
            sym, f_ext=True, armature=True)})
    puma = _library('puma560')
    if puma is not None:
        row('puma560', 'PUMA 560 (library)', count_rne(dyn_params(puma)),
            'rigid body, no wrench, library parameters')
    row('puma560', 'PUMA 560 (thesis parameter structure)',
        count_rne(puma_thesis_params(puma_geometry())),
        'rigid body, no wrench; I_O diagonal, one centre-of-mass component per link')
    return rows
