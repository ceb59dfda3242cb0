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
Velocity and acceleration estimation from sampled signals.

:class:`StateVariableFilter` is seed 003's state-variable filter (Appendix
B): a signal ``y`` is passed through ``1 / C(s)`` and the filter states give
the filtered signal and its derivatives, ``s^i y / C(s)`` for ``i = 0 ..
deg C``. With the thesis's ``C(s) = 0.01 s^2 + 0.2 s + 1 = (0.1 s + 1)^2``
(coefficients highest power first, as in the thesis) the outputs are the
filtered angle, velocity and acceleration, each delayed by the same low-pass
filter (double pole at -10 rad/s), which is what a least-squares estimator
needs. The filter is discretised exactly (matrix exponential) rather than by
the thesis's fifth-order Taylor series, with the input of each channel either
held constant over a sample (``hold='zero'``, exact for a zero-order-held
torque) or linearly interpolated (``hold='linear'``, the thesis's
``ConstantBetweenSamples = FALSE``, better for a sampled position).

The same filter serves the two uses of the package: a fixed sample period
(the estimators of the control laws), and a sample time given with every
sample (:meth:`StateVariableFilter.velocity_estimator`, the hardware
driver's joint velocity and acceleration from encoder positions at the
board's time stamps, which restarts after a gap and reports the derivatives
as their means over the last interval, exact for a ramp).

Its state is a record (:func:`filter_dtype`) that the loop-form functions
:func:`filter_start`, :func:`filter_advance` and :func:`filter_output` work
on, compiled or not (:mod:`.jit`); an estimator that owns a filter nests the
record in its own.

:class:`~.filtered_difference.FilteredDifference` is the simple
alternative: backward differences smoothed by a first-order low-pass filter.
"""

import functools
import math

import numpy as np
from scipy.linalg import expm

from .jit import BLOCK, capacity, compiled, jitable, record
from ..errors import InputError

#: Seed 003 Appendix B: C(s) = 0.01 s^2 + 0.2 s + 1 (real-time controller).
SEED003_REALTIME = (0.01, 0.2, 1.0)
#: Seed 003 Ch. 4.6: C(s) = 0.001 s^3 + 0.03 s^2 + 0.3 s + 1 (off-line, 100 Hz).
SEED003_OFFLINE = (0.001, 0.03, 0.3, 1.0)

HOLDS = ('linear', 'zero')

#: Discretisations a filter keeps, one per sample time in use (then it starts afresh).
CACHE_SIZE = 128

_START, _UPDATE, _OUTPUTS = 0, 1, 2


@functools.lru_cache(maxsize=None)
def filter_dtype(order, channels):
    """
    Record type of a filter of ``order`` states per channel (padded).

    Parameters
    ----------
    order : int
        ``deg C``.
    channels : int
        Number of channels.

    Returns
    -------
    numpy.dtype
        Fields ``order``, ``channels``, ``started``, the discrete model
        ``phi``, ``g0``, ``g1``, the output row ``row`` and ``b_last``, the
        steady-state gain ``dc``, per channel ``linear`` (hold) and the last
        input ``u``, the state ``x`` (order, channels), and ``work``.

    """
    k, c = capacity(order, 4), capacity(channels, 2 * BLOCK)
    return np.dtype([('order', np.int64), ('channels', np.int64), ('started', np.bool_),
                     ('b_last', np.float64), ('dc', np.float64), ('phi', np.float64, (k, k)),
                     ('g0', np.float64, (k,)), ('g1', np.float64, (k,)),
                     ('row', np.float64, (k,)), ('linear', np.uint8, (c,)),
                     ('u', np.float64, (c,)), ('x', np.float64, (k, c)),
                     ('work', np.float64, (k,))], align=True)


@jitable
def filter_start(f, u):
    """Start every channel at the steady state of the constant input ``u`` (channels,)."""
    x, prev, dc = f['x'], f['u'], f['dc']
    for c in range(f['channels']):
        x[0, c] = u[c] * dc
        for i in range(1, f['order']):
            x[i, c] = 0.0
        prev[c] = u[c]
    f['started'] = True


@jitable
def filter_advance(f, u):
    """
    Advance one sample with the new input ``u`` (channels,).

    ``x <- Phi x + g0 u_prev + g1 (u - u_prev)`` on a linearly interpolated
    channel, ``x <- Phi x + g0 u`` on a held one (``u`` held over the sample
    that just ended).
    """
    order, x, work = f['order'], f['x'], f['work']
    phi, g0, g1, linear, prev = f['phi'], f['g0'], f['g1'], f['linear'], f['u']
    for c in range(f['channels']):
        for i in range(order):
            acc = 0.0
            for k in range(order):
                acc += phi[i, k] * x[k, c]
            if linear[c]:
                acc += g0[i] * prev[c] + g1[i] * (u[c] - prev[c])
            else:
                acc += g0[i] * u[c]
            work[i] = acc
        for i in range(order):
            x[i, c] = work[i]
        prev[c] = u[c]


@jitable
def filter_output(f, i, c, u):
    """Output ``s^i y / C`` (``i <= order``) of channel ``c`` for the current input ``u``."""
    x = f['x']
    if i < f['order']:
        return x[i, c]
    row = f['row']
    acc = 0.0
    for k in range(f['order']):
        acc += row[k] * x[k, c]
    return acc + f['b_last'] * u


def _filter_call(state, u, mode, means, dt, out):
    """
    Start, update or read a filter (record array ``state``); outputs into ``out``.

    With ``means`` the derivatives are reported as their means over the
    interval ``dt`` (zero when the filter just started).
    """
    f = state[0]
    order, x = f['order'], f['x']
    channels = out.shape[1]
    if mode == _START or (mode == _UPDATE and not f['started']):
        filter_start(f, u)
        if means:
            for c in range(channels):
                out[0, c] = x[0, c]
                for i in range(order):
                    out[i + 1, c] = 0.0
            return
    elif mode == _UPDATE and means:
        for c in range(channels):   # keep the states before the sample
            for i in range(order):
                out[i + 1, c] = x[i, c]
        filter_advance(f, u)
        for c in range(channels):
            out[0, c] = x[0, c]
            for i in range(order):
                out[i + 1, c] = (x[i, c] - out[i + 1, c]) / dt
        return
    elif mode == _UPDATE:
        filter_advance(f, u)
    for c in range(channels):
        for i in range(order + 1):
            out[i, c] = filter_output(f, i, c, u[c])


_call = compiled(jitable(_filter_call))


class StateVariableFilter:
    """
    ``s^i / C(s)`` filters of one or more channels, discretised exactly.

    Parameters
    ----------
    coefficients : sequence of float
        ``C(s)`` coefficients, highest power first; degree >= 1, leading
        and trailing coefficients non-zero, stable.
    period : float, optional
        Sample period [s]; None when every :meth:`update` gives its own.
    channels : int
        Number of signals filtered in parallel (e.g. joints).
    hold : {'linear', 'zero'} or sequence of them
        Input between samples, for all channels or per channel: linear
        interpolation of the samples, or the value given to :meth:`update`
        held over the sample that just ended.
    means : bool
        Report the derivatives (outputs 1 .. deg C) as their means over the
        last sample interval (differences of the states) instead of their
        values at its end.
    max_gap : float
        A sample time outside ``(0, max_gap]`` restarts the filter at the
        new sample [s].
    state : numpy.ndarray, optional
        Record of :func:`filter_dtype` to work in (e.g. nested in an
        estimator's); default a new one.

    """

    def __init__(self, coefficients, period=None, channels=1, hold='linear', *, means=False,
                 max_gap=math.inf, state=None):
        c = np.asarray(coefficients, dtype=float)
        if c.ndim != 1 or c.size < 2 or not np.all(np.isfinite(c)) or c[0] == 0.0 or c[-1] == 0.0:
            raise InputError('coefficients', 'need a polynomial of degree >= 1 with non-zero '
                                             f'leading and constant terms, got {coefficients!r}')
        if np.any(np.real(np.roots(c)) >= 0.0):
            raise InputError('coefficients', f'C(s) = {c.tolist()} is not stable')
        if period is not None and not (math.isfinite(period) and period > 0.0):
            raise InputError('period', f'must be finite and > 0, got {period}')
        if int(channels) < 1:
            raise InputError('channels', f'must be >= 1, got {channels}')
        holds = (hold,) * int(channels) if isinstance(hold, str) else tuple(hold)
        if len(holds) != int(channels) or any(h not in HOLDS for h in holds):
            raise InputError('hold', f"must be 'linear' or 'zero' (or one per channel), "
                                     f'got {hold!r}')
        if not max_gap > 0.0:
            raise InputError('max_gap', f'must be > 0 s, got {max_gap}')
        self.coefficients = tuple(float(v) for v in c)
        self.order = k = c.size - 1
        self.period = None if period is None else float(period)
        self.channels = int(channels)
        self.hold = hold if isinstance(hold, str) else holds
        self.means = bool(means)
        self.max_gap = float(max_gap)
        self.state = record(filter_dtype(k, self.channels)) if state is None else state
        s = self.state[0]
        s['order'], s['channels'], s['started'] = k, self.channels, False
        s['linear'][:self.channels] = [h == 'linear' for h in holds]
        # Companion form: z^(k) = (u - c_k z - ... - c_1 z^(k-1)) / c_0.
        a = np.zeros((k, k))
        a[:-1, 1:] = np.eye(k - 1)
        a[-1] = -c[:0:-1] / c[0]
        self._a = a
        s['row'][:k] = a[-1]
        s['b_last'] = 1.0 / c[0]
        s['dc'] = 1.0 / c[-1]
        #: Views of the discrete model: Phi (k, k), g0 and g1 (k,) of the current sample time.
        self.phi, self.g0, self.g1 = s['phi'][:k, :k], s['g0'][:k], s['g1'][:k]
        #: Output row of the highest derivative: ``s^k y / C = row . x + b_last u``.
        self.row = s['row'][:k]
        self.b_last = float(s['b_last'])
        self._x = s['x'][:k, :self.channels]
        self._cache = {}
        self._dt_key = None
        if self.period is not None:
            self._discretise(self.period)

    @classmethod
    def velocity_estimator(cls, channels, bandwidth=30.0, damping=1.0, max_gap=0.1):
        """
        Second-order filter for velocity and acceleration from positions at varying times.

        ``p'' + 2 zeta w p' + w^2 p = w^2 q`` (``w = 2 pi bandwidth``, unit DC
        gain), positions held over each interval (the board time step),
        derivatives as interval means; :meth:`update` takes the interval.

        Parameters
        ----------
        channels : int
            Number of joints.
        bandwidth : float
            Natural frequency ``f_c`` [Hz].
        damping : float
            Damping ratio ``zeta`` (1: critically damped double pole, as in
            seed 003).
        max_gap : float
            A sample interval longer than this restarts the filter [s].

        Returns
        -------
        StateVariableFilter
            Whose ``update(q, dt)`` gives ``(position, velocity,
            acceleration)`` rows.

        """
        if not (math.isfinite(bandwidth) and bandwidth > 0.0):
            raise InputError('bandwidth', f'must be a positive frequency [Hz], got {bandwidth}')
        if not (math.isfinite(damping) and damping > 0.0):
            raise InputError('damping', f'must be positive, got {damping}')
        w = 2.0 * math.pi * bandwidth
        return cls((1.0 / (w * w), 2.0 * damping / w, 1.0), None, channels, 'zero', means=True,
                   max_gap=max_gap)

    def _discretise(self, dt):
        """Put the discrete model of sample time ``dt`` into the record (cached)."""
        key = round(dt * 1e9)
        if key == self._dt_key:
            return
        m = self._cache.get(key)
        if m is None:
            k = self.order
            e = self._augmented_exp(dt)
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            m = self._cache[key] = (e[:k, :k].copy(), e[:k, k].copy(), e[:k, k + 1] / dt)
        self.phi[...], self.g0[...], self.g1[...] = m
        self._dt_key = key

    def _discretise_multiples(self, dt, count):
        """Cache the models of ``k dt``, ``k = 2 .. count`` (``exp(M k dt) = exp(M dt)^k``)."""
        k = self.order
        one = self._augmented_exp(dt)
        power = one
        for m in range(2, count + 1):
            h = m * dt
            if h > self.max_gap or len(self._cache) >= CACHE_SIZE:
                return
            power = power @ one
            key = round(h * 1e9)
            if key not in self._cache:
                self._cache[key] = (power[:k, :k].copy(), power[:k, k].copy(),
                                    power[:k, k + 1] / h)

    def _augmented_exp(self, dt):
        """Return ``exp(M dt)`` of the filter augmented with a first-order-hold input."""
        k = self.order
        aug = np.zeros((k + 2, k + 2))
        aug[:k, :k] = self._a
        aug[k - 1, k] = self.b_last
        aug[k, k + 1] = 1.0
        return expm(aug * dt)

    def prepare(self, dt=None, multiples=1):
        """
        Load the compiled update and discretise for ``dt`` now, not in a loop's first sample.

        The first call of the compiled code loads it from numba's disk
        cache (or compiles it): tenths of a second an I/O loop must not
        spend on its first report. A new sample time costs a matrix
        exponential (scipy); ``multiples`` > 1 readies ``k dt`` too (samples
        ``k`` periods apart after a late cycle). The state is left as it was.

        Parameters
        ----------
        dt : float, optional
            Expected sample time [s] (default the period; none: only load).
        multiples : int
            Discretise ``k dt`` for ``k = 1 .. multiples`` (those within
            ``max_gap``; at most :data:`CACHE_SIZE`).

        """
        h = self.period if dt is None else float(dt)
        if h is not None and 0.0 < h <= self.max_gap:
            self._discretise(h)
            self._discretise_multiples(h, min(int(multiples), CACHE_SIZE))
        _call(self.state.copy(), np.zeros(self.channels), _START, False, 0.0,
              np.empty((self.order + 1, self.channels)))

    @property
    def started(self):
        """Whether the filter has a state (bool)."""
        return bool(self.state[0]['started'])

    def reset(self, u=None):
        """
        Restart at the steady state of a constant input (or empty).

        Parameters
        ----------
        u : array_like, optional
            Input value per channel; None to start at the next update.

        """
        if u is None:
            self.state[0]['started'] = False
            return
        _call(self.state, self._check(u), _START, False, 0.0,
              np.empty((self.order + 1, self.channels)))

    def _check(self, u):
        if type(u) is np.ndarray and u.shape == (self.channels,) and u.dtype == float \
                and u.flags.c_contiguous:
            return u
        arr = np.ascontiguousarray(u, dtype=float).reshape(-1)
        if arr.shape != (self.channels,):
            raise InputError('u', f'expected {self.channels} values, got {arr.shape}')
        return arr

    def update(self, u, dt=None):
        """
        Advance one sample and return the outputs.

        Parameters
        ----------
        u : array_like
            New sample (``'linear'``) or the value held over the sample that
            just ended (``'zero'``), one per channel.
        dt : float, optional
            Time since the previous sample [s]; default the period. Outside
            ``(0, max_gap]`` the filter restarts at ``u``.

        Returns
        -------
        numpy.ndarray
            (order + 1, channels), a new array: row i is ``s^i y / C`` (row 0
            the filtered signal, row 1 its derivative [unit/s], ...), with
            ``means`` rows 1.. are the means over the interval (zero after a
            restart).

        """
        u = self._check(u)
        h = self.period if dt is None else float(dt)
        if h is None:
            raise InputError('dt', 'this filter has no fixed period: give the sample time')
        mode = _UPDATE
        if not (0.0 < h <= self.max_gap):
            mode = _START
        else:
            self._discretise(h)
        out = np.empty((self.order + 1, self.channels))
        _call(self.state, u, mode, self.means, h, out)
        return out

    def outputs(self, u=None):
        """
        Compute the outputs for the current state (values at the end of the sample).

        Parameters
        ----------
        u : array_like, optional
            Current input (default: the last one given).

        Returns
        -------
        numpy.ndarray
            (order + 1, channels); zeros before the first update.

        """
        if not self.started:
            return np.zeros((self.order + 1, self.channels))
        u = self.state[0]['u'][:self.channels].copy() if u is None else self._check(u)
        out = np.empty((self.order + 1, self.channels))
        _call(self.state, u, _OUTPUTS, False, 0.0, out)
        return out

    def predict(self, u):
        """
        Predict the outputs one sample ahead with ``u`` held (state unchanged).

        Parameters
        ----------
        u : array_like
            Held input per channel.

        Returns
        -------
        numpy.ndarray
            (order + 1, channels).

        """
        return self._ahead(self._check(u), not self.started)

    def unit_response(self):
        """
        Compute the outputs after one sample of a held unit input from rest.

        Returns
        -------
        numpy.ndarray
            (order + 1,): the change of each output per unit of held input.

        """
        return self._ahead(np.ones(self.channels), True)[:, 0].copy()

    def _ahead(self, u, from_rest):
        """Compute the outputs one sample ahead on a copy of the state, ``u`` held."""
        ahead = self.state.copy()
        ahead[0]['linear'][:] = False
        if from_rest:
            ahead[0]['x'][:] = 0.0
            ahead[0]['started'] = True
        out = np.empty((self.order + 1, self.channels))
        _call(ahead, u, _UPDATE, False, 0.0, out)
        return out

    def __repr__(self):
        period = 'None' if self.period is None else f'{self.period:g}'
        return (f'StateVariableFilter(C={list(self.coefficients)}, period={period}, '
                f'channels={self.channels}, hold={self.hold!r})')
