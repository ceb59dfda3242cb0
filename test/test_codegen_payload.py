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

"""The payload-parametric kernels against Pinocchio with the payload added."""

from codegen_models import random_states, random_tree
import numpy as np
import pinocchio as pin
import pytest

from robodyn_ros.dynamics import codegen
from robodyn_ros.dynamics.codegen import kernels
from robodyn_ros.dynamics.rne import inverse_dynamics
from robodyn_ros.errors import InputError, UnknownNameError
from robodyn_ros.model import load_robot
from robodyn_ros.pinocchio_bridge import PinocchioBridge

#: (robot, payload frame): the end effector, and frames that are not.
CASES = [('puma560', None), ('ur5', None), ('panda', None), ('ur5', 'forearm_link'),
         ('panda', 'panda_hand_tcp'), ('puma560', 'link3')]
MASSES = (0.0, 0.7, 3.0)
NEW = ('inverse_dynamics_payload', 'payload_torque', 'gravity_payload', 'friction')


def _pin(model, q, qd, qdd):
    """Return Pinocchio's rnea (armature included) and gravity for one state."""
    b = PinocchioBridge(model)
    tau = b.from_v(pin.rnea(b.pin_model, b.pin_data, b.q(q), b.v(qd), b.v(qdd)))
    grav = b.from_v(pin.computeGeneralizedGravity(b.pin_model, b.pin_data, b.q(q)))
    return tau, grav


def _close(a, b, scale):
    return np.allclose(a, b, rtol=0.0, atol=1e-10 * max(1.0, scale))


@pytest.mark.parametrize('backend', ['c', 'numpy'])
@pytest.mark.parametrize('name, frame', CASES)
def test_payload_kernels_equal_pinocchio_with_the_payload(name, frame, backend):
    """Rigid part of the torque, gravity and y_m against rnea of model.with_payload(m, c)."""
    model = load_robot(name)
    k = kernels(model, backend, payload_frame=frame)
    where = frame or model.end_effector
    assert k.payload_frame == where
    rng = np.random.default_rng(len(name) + len(where))
    q, qd, qdd = random_states(rng, model, 3)
    for mass in MASSES:
        com = rng.uniform(-0.15, 0.15, 3)
        heavy = model.with_payload(mass, com, frame=where)
        unit = model.with_payload(1.0, com, frame=where)
        payload = np.concatenate(([mass], com))
        for i in range(3):
            state = (q[i], qd[i], qdd[i])
            ref, ref_g = _pin(heavy, *state)
            ref_unit = _pin(unit, *state)[0] - _pin(model, *state)[0]
            # The friction of the robot without the payload, from the numpy reference.
            fric = inverse_dynamics(model, *state) - inverse_dynamics(model, *state,
                                                                      friction=False)
            scale = np.abs(ref).max()
            assert _close(k.inverse_dynamics_payload(*state, payload) - fric, ref, scale)
            assert _close(k.gravity_payload(q[i], payload), ref_g, scale)
            assert _close(k.payload_torque(*state, com), ref_unit, np.abs(ref_unit).max())
            assert np.any(k.payload_torque(*state, com) != 0.0)


@pytest.mark.parametrize('name, frame', CASES)
def test_payload_torque_is_the_derivative_in_the_mass(name, frame):
    """A central difference of inverse_dynamics_payload in m gives payload_torque."""
    model = load_robot(name)
    k = kernels(model, payload_frame=frame)
    rng = np.random.default_rng(3)
    q, qd, qdd = random_states(rng, model, 5)
    h = 1e-3
    for i in range(5):
        com = rng.uniform(-0.1, 0.1, 3)
        state = (q[i], qd[i], qdd[i])
        for mass in MASSES:
            up = k.inverse_dynamics_payload(*state, np.concatenate(([mass + h], com)))
            down = k.inverse_dynamics_payload(*state, np.concatenate(([mass - h], com)))
            ym = k.payload_torque(*state, com)
            assert np.allclose((up - down) / (2.0 * h), ym, rtol=0.0,
                               atol=1e-8 * max(1.0, np.abs(up).max()))
        zero = k.inverse_dynamics_payload(*state, np.concatenate(([0.0], com)))
        assert _close(zero, k.inverse_dynamics(*state), np.abs(zero).max())


@pytest.mark.parametrize('name', ['ur5', 'panda', 'puma560'])
def test_friction_sees_the_robot_without_the_payload(name):
    """No load-dependent friction: the numpy ID of the loaded model; with it: base + m y_m."""
    model = load_robot(name)
    k = kernels(model)
    rng = np.random.default_rng(8)
    q, qd, qdd = random_states(rng, model, 4)
    com = np.array([0.02, -0.03, 0.05])
    for mass in (0.5, 2.5):
        heavy = model.with_payload(mass, com, frame=model.end_effector)
        tau = k.inverse_dynamics_payload_batch(q, qd, qdd, np.tile(np.r_[mass, com], (4, 1)))
        rigid_gain = (inverse_dynamics(heavy, q, qd, qdd, friction=False)
                      - inverse_dynamics(model, q, qd, qdd, friction=False))
        linear = inverse_dynamics(model, q, qd, qdd) + rigid_gain
        assert _close(tau, linear, np.abs(linear).max())
        loaded = inverse_dynamics(heavy, q, qd, qdd)
        if any(j.friction.bearing or j.friction.transmission for j in model.joints):
            assert not _close(loaded, linear, np.abs(linear).max())
        else:
            assert _close(tau, loaded, np.abs(loaded).max())


def _tree_cases():
    rng = np.random.default_rng(2027)
    out = []
    for tree in (True, False):
        model = random_tree(rng, tree=tree)
        # A frame in the middle of the tree, one at the tip, and the root (no torque).
        out += [(model, model.joints[2].link), (model, model.joints[-1].link),
                (model, model.root_link)]
    return out


@pytest.mark.parametrize('model, frame', _tree_cases())
def test_c_equals_numpy_kernels(model, frame):
    """Every new entry point, single and batch, C against the numpy reference."""
    kc, kn = kernels(model, 'c', frame), kernels(model, 'numpy', frame)
    rng = np.random.default_rng(11)
    q, qd, qdd = random_states(rng, model, 25)
    payload = np.column_stack((rng.uniform(0.0, 5.0, 25), rng.uniform(-0.2, 0.2, (25, 3))))
    com = np.ascontiguousarray(payload[:, 1:])
    args = {'inverse_dynamics_payload': (q, qd, qdd, payload),
            'payload_torque': (q, qd, qdd, com), 'gravity_payload': (q, payload),
            'friction': (q, qd, qdd)}
    for name in NEW:
        a = getattr(kc, name + '_batch')(*args[name])
        b = getattr(kn, name + '_batch')(*args[name])
        assert np.allclose(a, b, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(b).max())), name
        assert np.allclose(getattr(kc, name)(*(x[7] for x in args[name])), b[7], rtol=1e-10,
                           atol=1e-10 * max(1.0, np.abs(b).max())), name
        part = getattr(kc, name + '_batch')(*args[name], None, 5, 9)
        assert np.array_equal(part[5:9], a[5:9])
    if model.frame(frame).body < 0:
        assert np.all(kc.payload_torque_batch(q, qd, qdd, com) == 0.0)
    else:
        assert np.all(np.abs(kc.payload_torque_batch(q, qd, qdd, com)).max(axis=1) > 0.0)


def test_kernels_per_payload_frame_are_cached_apart(monkeypatch):
    """One generated module per (model, payload frame); the end effector is the default."""
    model = random_tree(np.random.default_rng(5), n=4)
    calls = []
    real = codegen.generate

    def counting(m, *args, **kwargs):
        calls.append(kwargs.get('payload_frame'))
        return real(m, *args, **kwargs)

    monkeypatch.setattr(codegen, 'generate', counting)
    default = kernels(model)
    assert kernels(model, payload_frame=model.end_effector) is default
    other = kernels(model, payload_frame=model.joints[1].link)
    assert other is not default and other.payload_frame == model.joints[1].link
    assert kernels(model, payload_frame=model.joints[1].link) is other
    assert calls == [model.end_effector, model.joints[1].link]
    with pytest.raises(UnknownNameError):
        kernels(model, payload_frame='no_such_frame')


def test_non_finite_inputs_like_the_other_entry_points():
    """C single calls name the argument and index, batches the row; numpy raises InputError."""
    model = load_robot('ur5')
    kc, kn = kernels(model, 'c'), kernels(model, 'numpy')
    rng = np.random.default_rng(4)
    q, qd, qdd = random_states(rng, model, 40)
    payload = np.tile([1.5, 0.0, 0.01, 0.1], (40, 1))
    bad = payload.copy()
    bad[0, 0] = np.nan
    bad_q = q[0].copy()
    bad_q[2] = np.nan
    with pytest.raises(ValueError, match='inverse_dynamics: q has a NaN or infinite value at '
                                         'index 2'):
        kc.inverse_dynamics(bad_q, qd[0], qdd[0])
    with pytest.raises(ValueError, match='payload has a NaN or infinite value at index 0'):
        kc.inverse_dynamics_payload(q[0], qd[0], qdd[0], bad[0])
    with pytest.raises(ValueError, match='com has a NaN'):
        kc.payload_torque(q[0], qd[0], qdd[0], bad[0, 1:] * np.nan)
    with pytest.raises(ValueError, match='gravity_payload: payload has a NaN'):
        kc.gravity_payload(q[0], bad[0])
    puma = load_robot('puma560')
    with pytest.raises(ValueError, match='friction: qd has a NaN or infinite value at index 2'):
        kernels(puma, 'c').friction(q[0], bad_q, qdd[0])
    with pytest.raises(InputError, match='payload'):
        kn.inverse_dynamics_payload(q[0], qd[0], qdd[0], bad[0])
    with pytest.raises(InputError, match='com'):
        kn.payload_torque(q[0], qd[0], qdd[0], np.array([0.0, np.inf, 0.0]))
    with pytest.raises(InputError, match='qd'):
        kernels(puma, 'numpy').friction(q[0], bad_q, qdd[0])
    with pytest.raises(InputError, match='qd'):
        kn.inverse_dynamics(q[0], bad_q, qdd[0])
    for row in (7, 39):
        rows = payload.copy()
        rows[row, 2] = np.inf
        with pytest.raises(ValueError, match=f'row {row} has a NaN'):
            kc.inverse_dynamics_payload_batch(q, qd, qdd, rows)
        with pytest.raises(ValueError, match=f'row {row} has a NaN'):
            kc.gravity_payload_batch(q, rows)
        with pytest.raises(ValueError, match=f'row {row} has a NaN'):
            kc.payload_torque_batch(q, qd, qdd, np.ascontiguousarray(rows[:, 1:]))
    with pytest.raises(ValueError, match=r'shape \(4,\)'):
        kc.inverse_dynamics_payload(q[0], qd[0], qdd[0], np.zeros(3))
    with pytest.raises(ValueError, match=r'shape \(3,\)'):
        kc.payload_torque(q[0], qd[0], qdd[0], np.zeros(4))


def test_compiled_callers_get_the_new_addresses():
    """c_address covers the payload and friction kernels."""
    k = kernels(load_robot('ur5'), 'c')
    addresses = {name: k.c_address(name) for name in NEW}
    assert len(set(addresses.values())) == len(NEW) and all(addresses.values())
