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
The record of one closed-loop run and its statistics.

Tracking error ``e = q_ref - q`` (true plant position), per joint: maximum
absolute and RMS value. Torque: maximum absolute and RMS value, fraction of
saturated samples. Chattering, two ways: *reversals*, the number of times
per second the torque changes direction (sign changes of its increments),
and *high-frequency power*, the mean square of the torque's spectrum above
a cut-off frequency.
"""

from dataclasses import dataclass

import numpy as np

from ..errors import InputError


@dataclass(frozen=True, eq=False)
class SimResult:
    """
    Time series of one run (K control samples, n joints).

    Attributes
    ----------
    label : str
        Name of the run.
    period : float
        Control period [s].
    times : numpy.ndarray
        Sample times, (K,) [s].
    q, qd : numpy.ndarray
        True plant positions and velocities at the samples, (K, n).
    q_ref, qd_ref : numpy.ndarray
        Reference (NaN where there was none), (K, n).
    tau : numpy.ndarray
        Torque applied over each sample, (K, n) [N m or N].
    modes : numpy.ndarray
        Controller mode per sample, (K,) str (``'ok'``, ``'saturated'``,
        ``'hold'``, ``'zero'``).
    estimates : dict
        Estimate name to (K, ...) array.
    diverged : bool
        The plant's state stopped being finite and the run was cut short.

    """

    label: str
    period: float
    times: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    q_ref: np.ndarray
    qd_ref: np.ndarray
    tau: np.ndarray
    modes: np.ndarray
    estimates: dict
    diverged: bool = False

    @property
    def error(self):
        """Tracking error ``q_ref - q``, (K, n) [rad or m] (numpy.ndarray)."""
        return self.q_ref - self.q

    def _window(self, start, end):
        t = self.times
        end = np.inf if end is None else end
        mask = (t >= start) & (t < end)
        if not mask.any():
            raise InputError('start', f'no samples in [{start}, {end}) s')
        return mask

    def max_error(self, start=0.0, end=None):
        """
        Largest absolute tracking error per joint.

        Parameters
        ----------
        start, end : float
            Time window [s] (default: the whole run).

        Returns
        -------
        numpy.ndarray
            (n,) [rad or m].

        """
        e = self.error[self._window(start, end)]
        return np.nanmax(np.abs(e), axis=0)

    def rms_error(self, start=0.0, end=None):
        """
        RMS tracking error per joint.

        Parameters
        ----------
        start, end : float
            Time window [s].

        Returns
        -------
        numpy.ndarray
            (n,) [rad or m].

        """
        e = self.error[self._window(start, end)]
        return np.sqrt(np.nanmean(e * e, axis=0))

    def torque_stats(self, start=0.0, end=None, limit=None):
        """
        Torque statistics per joint.

        Parameters
        ----------
        start, end : float
            Time window [s].
        limit : array_like, optional
            Torque limits, to count saturated samples.

        Returns
        -------
        dict
            ``max`` and ``rms`` [N m or N] and, with ``limit``,
            ``saturated`` (fraction of samples at the limit), each (n,).

        """
        tau = self.tau[self._window(start, end)]
        out = {'max': np.abs(tau).max(axis=0), 'rms': np.sqrt(np.mean(tau * tau, axis=0))}
        if limit is not None:
            lim = np.broadcast_to(np.asarray(limit, dtype=float), tau.shape[1:])
            out['saturated'] = np.mean(np.abs(tau) >= lim * (1.0 - 1e-12), axis=0)
        return out

    def reversals(self, start=0.0, end=None):
        """
        Direction changes of the torque per second, per joint.

        Parameters
        ----------
        start, end : float
            Time window [s].

        Returns
        -------
        numpy.ndarray
            (n,) [1/s]; a chattering relay at the sample rate gives about
            ``1 / period``.

        """
        tau = self.tau[self._window(start, end)]
        d = np.diff(tau, axis=0)
        scale = np.maximum(np.abs(tau).max(axis=0), 1e-300) * 1e-9
        d = np.where(np.abs(d) <= scale, 0.0, d)
        s = np.sign(d)
        # Carry the last non-zero direction through flat stretches.
        for k in range(1, s.shape[0]):
            s[k] = np.where(s[k] == 0.0, s[k - 1], s[k])
        changes = np.sum((s[1:] * s[:-1]) < 0.0, axis=0)
        return changes / (tau.shape[0] * self.period)

    def high_frequency_power(self, cutoff, start=0.0, end=None):
        """
        Mean square of the torque above a frequency, per joint.

        Parameters
        ----------
        cutoff : float
            Frequency [Hz] (below the Nyquist frequency).
        start, end : float
            Time window [s].

        Returns
        -------
        numpy.ndarray
            (n,) [(N m)^2]: the part of ``mean(tau^2)`` carried by
            frequencies above ``cutoff`` (Parseval).

        """
        tau = self.tau[self._window(start, end)]
        count = tau.shape[0]
        if not 0.0 < cutoff < 0.5 / self.period:
            raise InputError('cutoff', f'must be in (0, {0.5 / self.period:g}) Hz')
        spec = np.fft.rfft(tau - tau.mean(axis=0), axis=0)
        freq = np.fft.rfftfreq(count, self.period)
        power = np.abs(spec) ** 2 / count ** 2
        power[1:] *= 2.0
        if count % 2 == 0:
            power[-1] /= 2.0
        return power[freq > cutoff].sum(axis=0)

    def time_in_mode(self, mode):
        """
        Fraction of samples spent in a mode.

        Parameters
        ----------
        mode : str
            ``'ok'``, ``'saturated'``, ``'hold'`` or ``'zero'``.

        Returns
        -------
        float
            In [0, 1].

        """
        return float(np.mean(self.modes == mode))

    def summary(self, start=0.0, end=None, limit=None, degrees=True):
        """
        Numbers for a report.

        Parameters
        ----------
        start, end : float
            Time window [s].
        limit : array_like, optional
            Torque limits.
        degrees : bool
            Errors in degrees (revolute joints) instead of radians.

        Returns
        -------
        dict
            ``label``, ``max_error``, ``rms_error`` (lists, deg or rad),
            ``torque_max``, ``torque_rms``, ``reversals_per_s``,
            ``diverged``, and ``saturated`` with ``limit``.

        """
        f = np.degrees if degrees else (lambda x: x)
        ts = self.torque_stats(start, end, limit)
        out = {'label': self.label, 'max_error': f(self.max_error(start, end)).tolist(),
               'rms_error': f(self.rms_error(start, end)).tolist(),
               'torque_max': ts['max'].tolist(), 'torque_rms': ts['rms'].tolist(),
               'reversals_per_s': self.reversals(start, end).tolist(),
               'diverged': self.diverged}
        if 'saturated' in ts:
            out['saturated'] = ts['saturated'].tolist()
        return out
