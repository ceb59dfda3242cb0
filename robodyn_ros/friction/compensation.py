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
Friction compensation from the identified model, for the hardware interface.

The torque added to the controller's command is the model's friction at the
estimated state::

    tau_fc = k [ tau_v(qd) + (T(tau_rigid + tau_bearing, qd) - tau_rigid) ]

* ``tau_v`` is the velocity friction of :mod:`robodyn_ros.friction.models`
  (asymmetric Coulomb, viscous, Stribeck), with the sign smoothed over a
  zero-velocity band ``tanh(qd / band)`` at least as wide as ``band``, so
  that velocity noise at rest does not chatter the motor;
* the bracket is the seed-004 load-dependent friction (bearing friction from
  the joint reactions of our RNE and the transmission map), enabled on
  request: the RNE runs at the measured state ``(q, qd, qdd)`` and gives the
  rigid-body torque and reaction wrenches, exactly as
  :func:`robodyn_ros.dynamics.inverse_dynamics` composes it;
* ``k`` is a scale in [0, 1.5] (1: full compensation).

With the load term on, both terms come from one call of the ``friction``
kernel of :func:`robodyn_ros.dynamics.codegen.kernels` (the friction torques
alone, one recursion for the reactions) on a copy of the model whose
zero-velocity band is the compensation band. ``backend`` is the request
passed to ``kernels``: ``'auto'`` takes the robot's compiled kernels (about
a hundred times faster than numpy; compiled or loaded from the cache when
the compensator is made, not in the loop), ``'numpy'`` the numpy reference
(a few milliseconds per call from Python), which is why the load term can be
refreshed at a lower rate (``load_period``) and held in between.
"""

from collections.abc import Mapping
from dataclasses import replace
import math
import os

import numpy as np

from .loop_form import COMPILED, friction_table
from .models import velocity_friction
from ..dynamics.codegen import kernels
from ..dynamics.tables import tables
from ..errors import InputError, ParameterError
from ..model.params import apply_params, load_params_file


class FrictionCompensator:
    """
    Friction torque of a model at a measured state.

    Parameters
    ----------
    model : RobotModel
        Model carrying the (identified) friction parameters.
    band : float
        Width of the smooth zero-velocity band [rad/s or m/s] (> 0).
    scale : float
        Compensation gain ``k`` in [0, 1.5].
    load : bool
        Include the load-dependent friction (needs the model's bearing or
        transmission data; ignored without).
    load_period : float
        Refresh period of the load term [s]; 0 refreshes every call.
    backend : {'numpy', 'auto'}
        How the load term is computed: the request passed to
        :func:`~robodyn_ros.dynamics.codegen.kernels` (see the module docstring).

    """

    def __init__(self, model, band=0.02, scale=1.0, load=False, load_period=0.0,
                 backend='numpy'):
        if backend not in ('numpy', 'auto'):
            raise InputError('backend', f"must be 'numpy' or 'auto', got {backend!r}")
        self.model = model
        self.backend = backend
        self._tab = tables(model)
        self.band = self.scale = None
        self._band_model = None
        self._kernels = None
        self.load = False
        self.configure(band=band, scale=scale)
        self.set_load(load, load_period)
        self._load_term = np.zeros(model.n)
        self._load_time = -math.inf

    def replaced(self, band=None, scale=None, load=None, load_period=None):
        """
        Return a new compensator with some settings changed, ready to use.

        Building it (and compiling kernels for a new band) happens here, so a
        control loop can swap it in without a pause.

        Parameters
        ----------
        band, scale, load, load_period : optional
            New values; the others are kept.

        Returns
        -------
        FrictionCompensator
            The new compensator.

        """
        return FrictionCompensator(
            self.model, self.band if band is None else band,
            self.scale if scale is None else scale, self.load if load is None else load,
            self.load_period if load_period is None else load_period, self.backend)

    def __repr__(self):
        return (f'FrictionCompensator({self.model.name!r}, band={self.band:g}, '
                f'scale={self.scale:g}, load={self.load})')

    def configure(self, band=None, scale=None):
        """
        Change the band or the scale.

        With the ``'auto'`` backend and the load term on, prefer
        :meth:`replaced` for the band: a new band compiles new kernels here.

        Parameters
        ----------
        band : float, optional
            New band [rad/s or m/s].
        scale : float, optional
            New scale.

        Raises
        ------
        InputError
            Out-of-range values.

        """
        if band is not None:
            if not (math.isfinite(band) and band > 0.0):
                raise InputError('friction_band', f'must be positive [rad/s], got {band}')
            self.band = float(band)
            self._vtab = replace(self._tab, smoothing_velocity=np.maximum(
                self._tab.smoothing_velocity, self.band))
            self._table = friction_table(self._vtab, self._vtab.smoothing_velocity)
            self._band_model = None
            self._kernels = None
            if self.load:
                self._friction_kernels()
        if scale is not None:
            if not (math.isfinite(scale) and 0.0 <= scale <= 1.5):
                raise InputError('friction_scale', f'must be in [0, 1.5], got {scale}')
            self.scale = float(scale)

    def set_load(self, enabled, period=None):
        """
        Switch the load-dependent term (only possible if the model has one).

        Parameters
        ----------
        enabled : bool
            Include it.
        period : float, optional
            New refresh period [s].

        Returns
        -------
        bool
            Whether the term is now included.

        """
        self.load = bool(enabled) and self._tab.has_load_friction
        if period is not None:
            self.load_period = float(period)
        if self.load:
            self._friction_kernels()   # compile or load the kernels now, not in the loop
        return self.load

    def _friction_kernels(self):
        if self._kernels is None:
            if self._band_model is None:
                joints = [j.with_changes(friction=replace(
                    j.friction,
                    smoothing_velocity=max(j.friction.smoothing_velocity, self.band)))
                    for j in self.model.joints]
                self._band_model = self.model.replace_joints(joints)
            self._kernels = kernels(self._band_model, self.backend)
        return self._kernels

    def velocity_term(self, qd):
        """
        Velocity friction with the compensation band.

        Parameters
        ----------
        qd : numpy.ndarray
            Velocities, (n,) [rad/s or m/s].

        Returns
        -------
        numpy.ndarray
            Torque [N m or N], (n,).

        """
        return self._velocity(np.asarray(qd, dtype=float), 1.0)

    def _velocity(self, qd, scale):
        """``scale tau_v(qd)``: compiled once loaded (:mod:`.loop_form`), else NumPy."""
        fast = COMPILED.get()
        if fast is not None:
            try:
                return fast[0](qd, self._table, scale)
            except (TypeError, ValueError):   # not a float64 vector of n: the NumPy form
                pass
        return scale * velocity_friction(self._vtab, qd)

    def load_term(self, q, qd, qdd):
        """
        Load-dependent friction from the RNE reactions at one state.

        Parameters
        ----------
        q, qd, qdd : numpy.ndarray
            State, (n,) each.

        Returns
        -------
        numpy.ndarray
            ``T(tau_rigid + tau_bearing, qd) - tau_rigid`` [N m or N], (n,).

        """
        return self.friction(q, qd, qdd) - self.velocity_term(qd)

    def friction(self, q, qd, qdd):
        """
        Velocity and load-dependent friction with the band, one kernel call.

        Parameters
        ----------
        q, qd, qdd : array_like
            State, (n,) each.

        Returns
        -------
        numpy.ndarray
            ``tau_v + T(tau_rigid + tau_bearing, qd) - tau_rigid`` [N m or N], (n,).

        """
        state = (np.ascontiguousarray(x, dtype=float) for x in (q, qd, qdd))
        return self._friction_kernels().friction(*state)

    def torque(self, q, qd, qdd=None, now=None):
        """
        Compensation torque at the measured state.

        Parameters
        ----------
        q, qd : numpy.ndarray
            Position and velocity estimate, (n,).
        qdd : numpy.ndarray, optional
            Acceleration estimate for the reactions (default zero).
        now : float, optional
            Time [s] for the refresh of the load term (default: refresh).

        Returns
        -------
        numpy.ndarray
            Torque to add to the command [N m or N], (n,).

        """
        if not self.load:
            return self._velocity(np.asarray(qd, dtype=float), self.scale)
        if now is None or now - self._load_time >= self.load_period:
            acc = np.zeros(self.model.n) if qdd is None else qdd
            tau = self.friction(q, qd, acc)
            if now is not None and self.load_period > 0.0:   # held until the next refresh
                self._load_term = tau - self.velocity_term(qd)
                self._load_time = now
            else:
                self._load_time = -math.inf
            return self.scale * tau
        return self.scale * (self.velocity_term(qd) + self._load_term)


def with_friction(model, params):
    """
    Replace a model's friction by that of a friction file (identification output).

    Parameters
    ----------
    model : RobotModel
        The model.
    params : str, os.PathLike or mapping
        A ``robodyn identify friction`` YAML, or any parameter mapping with a
        ``joints`` section; only the ``friction`` entries are used.

    Returns
    -------
    RobotModel
        A copy with the given joints' friction replaced.

    """
    source = None
    if not isinstance(params, Mapping):
        source = os.fspath(params)
        params = load_params_file(params)
    joints = params.get('joints') or {}
    if not isinstance(joints, Mapping):
        raise ParameterError('joints must be a mapping of joint names', source, None, 'joints')
    subset = {}
    for name, entry in joints.items():
        entry = entry or {}
        if not isinstance(entry, Mapping):
            raise ParameterError('joint entry must be a mapping', source, f'joint {name!r}')
        subset[name] = {'friction': entry.get('friction') or {}}
    return apply_params(model, {'joints': subset}, source=source)
