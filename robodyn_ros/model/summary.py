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

"""A plain-data summary of a model, for printing and JSON output."""

import math

import numpy as np

from .joint import dataclass_to_dict
from .transforms import matrix_to_rpy


def _clean(value):
    """Make floats JSON-friendly (inf and NaN become strings)."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return 'nan'
        if math.isinf(v):
            return 'inf' if v > 0 else '-inf'
        return v
    if isinstance(value, np.integer):
        return int(value)
    return value


def model_summary(model):
    """
    Describe a model as nested dicts and lists of plain values.

    Parameters
    ----------
    model : RobotModel
        The model.

    Returns
    -------
    dict
        Keys ``name``, ``source``, ``root_link``, ``gravity`` [m/s^2],
        ``dof``, ``dh`` (or None), ``joints`` (placement, axis, limits,
        actuator, friction, mimic), ``inertials`` (per body: mass [kg], com
        [m], inertia [kg m^2]), ``frames``, ``notes``, ``warnings`` (rules
        the model breaks but was accepted with) and ``validation`` (``'ok'``
        or ``'ok with N warnings'``).
        Infinite and NaN values are given as strings.

    """
    joints = []
    for j in model.joints:
        parent = model.root_link if j.parent < 0 else model.joints[j.parent].link
        joints.append({
            'name': j.name, 'type': j.kind, 'parent_link': parent, 'child_link': j.link,
            'xyz': j.translation.tolist(), 'rpy': matrix_to_rpy(j.rotation).tolist(),
            'axis': j.axis.tolist(),
            'limits': dataclass_to_dict(j.limits),
            'actuator': dataclass_to_dict(j.actuator),
            'friction': dataclass_to_dict(j.friction),
            'mimic': None if j.mimic is None else dataclass_to_dict(j.mimic),
        })
    inertials = [{'link': j.link, 'mass': b.mass, 'com': b.com.tolist(),
                  'inertia': b.inertia.tolist()} for j, b in zip(model.joints, model.inertials)]
    frames = [{'name': f.name, 'body': f.body, 'xyz': f.translation.tolist(),
               'rpy': matrix_to_rpy(f.rotation).tolist()} for f in model.frames.values()]
    dh = None
    if model.dh is not None:
        dh = {'convention': model.dh.convention,
              'rows': [dict(zip(('a', 'alpha', 'd', 'theta', 'joint'), row))
                       for row in model.dh.rows]}
    return _clean({
        'name': model.name, 'source': model.source, 'root_link': model.root_link,
        'gravity': model.gravity.tolist(), 'dof': model.n, 'dh': dh, 'joints': joints,
        'inertials': inertials, 'frames': frames, 'notes': list(model.notes),
        'warnings': list(model.warnings),
        'validation': (f'ok with {len(model.warnings)} warning'
                       f'{"s" if len(model.warnings) > 1 else ""}' if model.warnings else 'ok'),
    })
