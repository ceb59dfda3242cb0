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

"""Compare two models field by field (a test helper for round-trip checks)."""

import math

import numpy as np

from robodyn_ros.model.joint import dataclass_to_dict


def _close(a, b, tol):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return False
    both_nan = np.isnan(a) & np.isnan(b)
    same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
    with np.errstate(invalid='ignore'):
        ok = both_nan | same_inf | (np.abs(np.nan_to_num(a - b, nan=np.inf)) <= tol)
    return bool(np.all(ok))


def _flatten(prefix, value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f'{prefix}.{k}', v, out)
    else:
        out[prefix] = value


def model_differences(a, b, tol=1e-12, compare_params=True):
    """
    List the differences between two models.

    Parameters
    ----------
    a, b : RobotModel
        Models to compare.
    tol : float
        Absolute tolerance on numbers (lengths in m, masses in kg, ...).
    compare_params : bool
        Also compare limits, actuator and friction records.

    Returns
    -------
    list of str
        One line per difference; empty when the models are equivalent.

    """
    diffs = []
    if a.joint_names != b.joint_names:
        return [f'joint names differ: {a.joint_names} vs {b.joint_names}']
    if a.link_names != b.link_names:
        diffs.append(f'link names differ: {a.link_names} vs {b.link_names}')
    if a.root_link != b.root_link:
        diffs.append(f'root link differs: {a.root_link!r} vs {b.root_link!r}')
    if not _close(a.gravity, b.gravity, tol):
        diffs.append(f'gravity differs: {a.gravity} vs {b.gravity}')
    for ja, jb, ia, ib in zip(a.joints, b.joints, a.inertials, b.inertials):
        where = f'joint {ja.name!r}'
        if ja.kind != jb.kind:
            diffs.append(f'{where}: kind {ja.kind} vs {jb.kind}')
        if ja.parent != jb.parent:
            diffs.append(f'{where}: parent {ja.parent} vs {jb.parent}')
        for name in ('rotation', 'translation', 'axis'):
            if not _close(getattr(ja, name), getattr(jb, name), tol):
                diffs.append(f'{where}: {name} {getattr(ja, name).tolist()} vs '
                             f'{getattr(jb, name).tolist()}')
        if not math.isclose(ia.mass, ib.mass, abs_tol=tol):
            diffs.append(f'{where}: body mass {ia.mass} vs {ib.mass}')
        if not _close(ia.com, ib.com, tol):
            diffs.append(f'{where}: body com {ia.com.tolist()} vs {ib.com.tolist()}')
        if not _close(ia.inertia, ib.inertia, tol):
            diffs.append(f'{where}: body inertia {ia.inertia.tolist()} vs '
                         f'{ib.inertia.tolist()}')
        if compare_params:
            for rec in ('limits', 'actuator', 'friction'):
                fa, fb = {}, {}
                _flatten(rec, dataclass_to_dict(getattr(ja, rec)), fa)
                _flatten(rec, dataclass_to_dict(getattr(jb, rec)), fb)
                for key in sorted(set(fa) | set(fb)):
                    va, vb = fa.get(key), fb.get(key)
                    if isinstance(va, str) or isinstance(vb, str) or va is None or vb is None:
                        if va != vb:
                            diffs.append(f'{where}: {key} {va!r} vs {vb!r}')
                    elif not _close(va, vb, tol):
                        diffs.append(f'{where}: {key} {va!r} vs {vb!r}')
    fa = dict(a.frames)
    fb = dict(b.frames)
    if set(fa) != set(fb):
        diffs.append(f'frames differ: {sorted(set(fa) ^ set(fb))}')
    for name in sorted(set(fa) & set(fb)):
        if fa[name].body != fb[name].body or not (
                _close(fa[name].rotation, fb[name].rotation, tol)
                and _close(fa[name].translation, fb[name].translation, tol)):
            diffs.append(f'frame {name!r} differs')
    return diffs
