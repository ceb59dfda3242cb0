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

"""The expression layer, zero/one removal in the C text, grouping and the seed counts."""

import re

from codegen_models import random_dh, random_tree
import numpy as np
import pytest

from robodyn_ros.dynamics.codegen import op_counts
from robodyn_ros.dynamics.codegen.bodies import dyn_params
from robodyn_ros.dynamics.codegen.expr import Graph
from robodyn_ros.dynamics.codegen.generate import generate
from robodyn_ros.dynamics.codegen.grouping import group_parameters
from robodyn_ros.dynamics.codegen.sym_rne import rne
from robodyn_ros.model import load_robot
from robodyn_ros.reproductions.operation_counts import (comparisons, count_rne, general_6r,
                                                        puma_geometry, puma_thesis_params,
                                                        rx90_geometry, rx90_symmetric_params)


def test_zeros_and_ones_are_propagated():
    g = Graph()
    x = g.var('x', 0)
    assert g.mul(x, g.zero) == g.zero and g.mul(g.zero, x) == g.zero
    assert g.mul(x, g.one) == x and g.mul(g.one, x) == x
    assert g.mul(x, g.const(-1.0)) == g.neg(x)
    assert g.add(x, g.zero) == x and g.add(g.zero, x) == x
    assert g.sub(x, g.zero) == x and g.sub(g.zero, x) == g.neg(x)
    assert g.sub(x, x) == g.zero
    assert g.value(g.add(g.const(2.0), g.const(3.0))) == 5.0
    assert g.value(g.mul(g.const(2.0), g.const(3.0))) == 6.0
    assert g.mul(g.const(2.0), g.mul(g.const(3.0), x)) == g.mul(g.const(6.0), x)
    assert g.neg(g.neg(x)) == x
    assert g.value(g.sin(g.zero)) == 0.0 and g.value(g.cos(g.zero)) == 1.0
    assert g.div(x, g.const(4.0)) == g.mul(x, g.const(0.25))
    assert g.value(g.fn('fabs', g.const(-2.0))) == 2.0


def test_hash_consing_and_negation_rules():
    g = Graph()
    x, y, z = (g.var('v', i) for i in range(3))
    assert g.mul(x, y) == g.mul(y, x)
    assert g.add(x, y) == g.add(y, x)
    assert g.add(x, g.neg(y)) == g.sub(x, y)
    assert g.mul(g.neg(x), y) == g.neg(g.mul(x, y))
    assert g.mul(g.neg(x), g.neg(y)) == g.mul(x, y)
    assert g.mul(g.const(-2.0), x) == g.neg(g.mul(g.const(2.0), x))
    assert g.sub(g.add(x, y), x) == y
    assert g.add(g.sub(x, y), y) == x
    assert g.sub(x, g.sub(x, z)) == z
    before = len(g.op)
    g.add(g.mul(x, y), z)
    g.add(z, g.mul(y, x))
    assert len(g.op) == before + 1


def test_counts_are_after_dead_code_removal():
    g = Graph()
    x, y = g.var('v', 0), g.var('v', 1)
    live = g.add(g.mul(x, y), g.sin(x))
    g.mul(g.add(x, y), g.cos(y))            # dead
    c = g.count([live, g.cos(x)])
    assert (c['mul'], c['add'], c['sincos']) == (1, 1, 1)


def test_numeric_evaluation():
    g = Graph()
    x, y = g.var('v', 0), g.var('v', 1)
    name = g.interp_table([0.0, 1.0, 2.0], [0.5, 0.7, 0.9])
    nodes = [g.div(g.fn('hypot', x, y), g.add(g.fn('exp', x), g.one)),
             g.fn(name, g.fn('fabs', y)), g.select('gt', x, y, g.neg(y)), g.fn('tanh', x)]
    v = np.random.default_rng(0).normal(size=(50, 2))
    got = g.evaluate(nodes, {'v': v})
    x, y = v[:, 0], v[:, 1]
    table = np.interp(np.abs(y), [0, 1, 2], [0.5, 0.7, 0.9])
    ref = np.stack([np.hypot(x, y) / (np.exp(x) + 1), table, np.where(x > 0, y, -y),
                    np.tanh(x)], axis=-1)
    assert np.allclose(got, ref, rtol=1e-15, atol=1e-15)


_ZERO = ('0.0', '(-0.0)')
_ONES = ('1.0', '(-1.0)')


def _trivial(expr):
    """Tell whether ``a op b`` multiplies by 0 or +-1, adds 0 or divides by +-1."""
    parts = expr.rstrip(';').split(' ')
    if len(parts) != 3:
        return False
    a, op, b = parts
    if op == '*':
        return a in _ZERO + _ONES or b in _ZERO + _ONES
    if op in '+-':
        return a in _ZERO or b in _ZERO
    if op == '/':
        return a in _ZERO or b in _ONES
    return False


def _statements(source):
    body = []
    for line in source.splitlines():
        line = line.strip()
        if re.match(r'const double t\d+ = ', line) or re.match(r'out\[\d+\] = ', line):
            body.append(line.split(' = ', 1)[1])
    return body


@pytest.mark.parametrize('model', [load_robot('ur5'), load_robot('panda'),
                                   random_tree(np.random.default_rng(5))],
                         ids=['ur5', 'panda', 'tree'])
def test_c_source_has_no_trivial_operations(model):
    source = generate(model).source
    stmts = _statements(source)
    assert len(stmts) > 100
    bad = [s for s in stmts if _trivial(s)]
    assert not bad, bad[:5]
    for kernel in re.findall(r'static void k_\w+\(.*?\n}\n', source, re.S):
        angles = re.findall(r'(?:RD_SINCOS|sin|cos)\((q_\d+)', kernel)
        assert len(angles) == len(set(angles))   # each angle once per kernel


def test_trivial_check_can_fail():
    assert _trivial('t1 * 1.0;') and _trivial('(-1.0) * t2;') and _trivial('t1 + 0.0;')
    assert _trivial('0.0 * t3;') and _trivial('t3 / 1.0;') and _trivial('0.0 - t3;')
    assert not _trivial('t1 * 10.0;') and not _trivial('t1 * 0.01;')
    assert not _trivial('1.0 / t7;') and not _trivial('0.0;')


def test_axis_aligned_robot_needs_far_fewer_operations():
    general = count_rne(dyn_params(general_6r()))
    aligned = count_rne(dyn_params(rx90_geometry()))
    assert aligned['mul'] < 0.5 * general['mul']
    assert aligned['add'] < 0.5 * general['add']


def test_generation_completes_every_kernel():
    # No bound on its time: a timed assert fails on a loaded machine, not on slow code.
    model = load_robot('panda')
    gen = generate(model)
    for key in ('inverse_dynamics', 'gravity', 'mass_matrix', 'forward_dynamics'):
        assert gen.op_counts[key]['mul'] > 0
    assert op_counts(model)['rne'] == gen.op_counts['rne']


@pytest.mark.parametrize('seed', range(6))
def test_grouped_parameters_give_the_same_torques(seed):
    rng = np.random.default_rng(seed)
    model = random_dh(rng, convention=('standard', 'modified')[seed % 2], friction=False,
                      prismatic=0.4)
    std = dyn_params(model)
    grouped = group_parameters(std)
    g = Graph()
    n = model.n
    q, qd, qdd = g.var_array('q', n), g.var_array('qd', n), g.var_array('qdd', n)
    fe = g.var_array('f', 6)
    outs = []
    for params in (std, grouped):
        tau = rne(g, params, q, qd, qdd, f_ext=fe).tau
        outs.append([g.add(t, g.mul(g.const(b.armature), qdd[i]))
                     for i, (t, b) in enumerate(zip(tau, params.bodies))])
    data = {k: rng.normal(size=(200, 6 if k == 'f' else n)) for k in ('q', 'qd', 'qdd', 'f')}
    a = g.evaluate(outs[0], data)
    b = g.evaluate(outs[1], data)
    assert np.abs(a - b).max() <= 1e-12 * np.abs(a).max()
    zeroed = sum(int(np.sum(np.abs(b_.inertia) > 0)) + int(b_.mass != 0)
                 for b_ in grouped.bodies)
    full = sum(int(np.sum(np.abs(b_.inertia) > 0)) + int(b_.mass != 0) for b_ in std.bodies)
    assert zeroed < full


def test_rx90_base_parameters_match_the_symoro_count():
    sym = rx90_symmetric_params()
    base = group_parameters(sym)
    counts = count_rne(base, f_ext=True, armature=True)
    assert counts['mul'] <= 160 and counts['add'] <= 113
    assert count_rne(sym, f_ext=True, armature=True)['mul'] > counts['mul']
    nonzero = {j: np.flatnonzero(np.abs(b.first_moment) > 0).tolist()
               for j, b in enumerate(base.bodies)}
    assert nonzero == {0: [], 1: [0, 1], 2: [1], 3: [], 4: [1], 5: []}
    assert all(b.mass == 0.0 for b in base.bodies)


def test_seed_counts():
    rows = {(r['key'], r['case']): r for r in comparisons()}
    gen = rows[('general_6r', 'general 6R (standard DH, full inertia)')]
    assert gen['ours'][0] < 678 and gen['ours'][1] < 521
    thesis = count_rne(puma_thesis_params(puma_geometry()))
    assert thesis['mul'] <= 208 and thesis['add'] <= 160
