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

"""Regressor and base parameters."""

from dyn_models import example_models, random_dh_model, random_inertia
import numpy as np
import pytest
from robodyn_ros.dynamics import (base_parameters, inverse_dynamics, parameter_names,
                                  parameter_vector, regressor)
from robodyn_ros.dynamics.crosscheck import random_states
from robodyn_ros.errors import InputError
from robodyn_ros.model import RobotModel


def _no_load_friction(models):
    return {k: m for k, m in models.items() if k != 'two_link'}


def test_regressor_times_parameters_is_torque():
    """Y(q, qd, qdd) theta equals inverse_dynamics with friction (all layouts)."""
    for name, m in _no_load_friction(example_models()).items():
        q, qd, qdd = random_states(m, 40, seed=31)
        y = regressor(m, q, qd, qdd)
        theta = parameter_vector(m)
        assert y.shape == (40, m.n, len(parameter_names(m)))
        tau = inverse_dynamics(m, q, qd, qdd)
        assert np.allclose(y @ theta, tau, atol=1e-11 * max(1, np.abs(tau).max())), name


def test_regressor_single_state_and_gravity_flag():
    """A single state gives an (n, p) matrix; gravity=False drops the gravity terms."""
    m = random_dh_model(2, stribeck=True)
    q, qd, qdd = (x[0] for x in random_states(m, 1, seed=3))
    y = regressor(m, q, qd, qdd, gravity=False)
    assert y.shape == (m.n, len(parameter_vector(m)))
    assert np.allclose(y @ parameter_vector(m),
                       inverse_dynamics(m, q, qd, qdd, gravity=False), atol=1e-11)


def test_symmetric_layout_refuses_asymmetric_friction():
    """Asking for symmetric friction parameters of an asymmetric model is an error."""
    m = random_dh_model(2)
    with pytest.raises(InputError, match='asymmetric'):
        parameter_vector(m, friction='symmetric')


def _rx90_general(seed=0):
    """RX-90 geometry (seed 001) with generic inertial parameters, Ia, Fc, Fv."""
    rng = np.random.default_rng(seed)
    pi, d3, rl4 = np.pi, 0.45, 0.45
    rows = [(0, 0, 0), (0, pi / 2, 0), (d3, 0, 0), (0, -pi / 2, rl4), (0, pi / 2, 0),
            (0, -pi / 2, 0)]
    links = []
    for a, alpha, d in rows:
        mass = rng.uniform(1, 5)
        links.append({'a': a, 'alpha': alpha, 'd': d, 'theta': 0.0, 'joint': 'R',
                      'mass': mass, 'com': rng.normal(0, 0.1, 3),
                      'inertia': random_inertia(rng, mass), 'armature': 0.5,
                      'coulomb': 0.3, 'viscous': 0.2})
    return RobotModel.from_dh(links, convention='modified', name='rx90_general')


def test_rx90_base_parameter_rank():
    """The general RX-90 has 52 base parameters: 40 inertial + Ia and 12 friction (seed 001)."""
    bp = base_parameters(_rx90_general(), friction='symmetric')
    assert len(bp.names) == 78
    assert bp.rank == 52
    friction = [bp.names[b] for b in bp.base if '.F' in bp.names[b]]
    assert len(friction) == 12
    no_effect = {'link1.XX', 'link1.XY', 'link1.XZ', 'link1.YY', 'link1.YZ', 'link1.MX',
                 'link1.MY', 'link1.MZ', 'link1.M', 'link2.MZ', 'link2.M'}
    assert set(bp.unidentifiable) == no_effect
    expr = dict(zip((bp.names[b] for b in bp.base), bp.expressions()))
    # Khalil's grouping: XXR2 = XX2 - YY2 - D3^2 (M3 + M4 + M5 + M6), Ia1 into ZZR1.
    assert expr['link2.XX'].startswith('link2.XX - 1*link2.YY - 0.2025*link3.M')
    assert 'joint1.Ia' in expr['link1.ZZ'] and 'joint2.Ia' in expr['link2.ZZ']


def test_base_parameter_torques_equal_standard_ones():
    """Y_base beta = Y theta on fresh states, for several robots."""
    for m in (_rx90_general(1), random_dh_model(6, joints='RPRR', stribeck=True),
              example_models()['panda']):
        bp = base_parameters(m)
        q, qd, qdd = random_states(m, 25, seed=99)
        y = regressor(m, q, qd, qdd, friction=bp.friction)
        theta = parameter_vector(m, friction=bp.friction)
        assert np.allclose(bp.regressor(y) @ bp.values(theta), y @ theta, atol=1e-10)
        # The base regressor has full column rank.
        stacked = bp.regressor(y).reshape(-1, bp.rank)
        assert np.linalg.matrix_rank(stacked) == bp.rank


def _readme_block(marker):
    """Return the README's Python block that contains ``marker``."""
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as fh:
        blocks = re.findall(r'```python\n(.*?)```', fh.read(), re.S)
    (block,) = [b for b in blocks if marker in b]
    return block


def test_readme_dynamics_snippet_is_true():
    """The README's dynamics snippet runs, and its Y @ theta claim holds for the PUMA 560."""
    import numpy as np
    namespace = {}
    exec(compile(_readme_block('dyn.regressor('), 'README.md', 'exec'), namespace)
    y, theta, tau, tau_lin = (namespace[k] for k in ('Y', 'theta', 'tau', 'tau_lin'))
    assert np.allclose(y @ theta, tau_lin, atol=1e-9)
    # The load-dependent friction is why the full torque is not Y @ theta (joints 1-3).
    assert np.all(np.abs((tau - y @ theta)[:3]) > 1.0)
    assert np.allclose((tau - y @ theta)[3:], 0.0, atol=1e-9)
