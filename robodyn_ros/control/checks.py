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
Input checks shared by the control laws: per-joint settings, periods, state vectors.

Configuration is checked with exceptions (:func:`per_joint`,
:func:`check_period` raise :class:`~robodyn_ros.errors.InputError` naming the
setting); the samples of the control loop are checked without them
(:func:`checked_vector` returns None for anything unusable).
"""

import math

import numpy as np

from .jit import finite
from ..errors import InputError


def per_joint(value, n, name, *, low=None, allow_inf=False, strict=False):
    """
    Broadcast a scalar or check a per-joint sequence.

    Parameters
    ----------
    value : float or array_like
        Scalar (used for every joint) or (n,) values.
    n : int
        Number of joints.
    name : str
        Name for error messages.
    low : float, optional
        Lower bound (inclusive, or exclusive with ``strict``).
    allow_inf : bool
        Accept ``+inf`` (e.g. no torque limit).
    strict : bool
        Require ``value > low``.

    Returns
    -------
    numpy.ndarray
        (n,) float array (a copy).

    Raises
    ------
    InputError
        Wrong length, NaN, infinity (unless allowed) or out of range.

    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(name, f'must be a number or {n} numbers, got {value!r}') from None
    if arr.ndim == 0:
        arr = np.full(n, float(arr))
    if arr.shape != (n,):
        raise InputError(name, f'expected a scalar or {n} values, got shape {arr.shape}')
    if np.any(np.isnan(arr)) or (not allow_inf and not np.all(np.isfinite(arr))):
        raise InputError(name, f'must be finite, got {arr.tolist()}')
    if low is not None:
        bad = arr <= low if strict else arr < low
        if np.any(bad):
            j = int(np.argmax(bad))
            rel = '>' if strict else '>='
            raise InputError(name, f'joint {j}: must be {rel} {low}, got {arr[j]}')
    return arr


def check_period(period):
    """
    Validate a sample period.

    Parameters
    ----------
    period : float
        Period [s].

    Returns
    -------
    float
        The period.

    Raises
    ------
    InputError
        Unless it is finite and positive.

    """
    try:
        h = float(period)
    except (TypeError, ValueError):
        raise InputError('period', f'must be a number, got {period!r}') from None
    if not (math.isfinite(h) and h > 0.0):
        raise InputError('period', f'must be finite and > 0 s, got {period}')
    return h


def checked_vector(value, n):
    """
    Give a sample as a finite, C-contiguous float (n,) array, or None.

    Parameters
    ----------
    value : array_like or None
        The sample (a conforming array is returned itself; anything else
        that converts is copied: the dynamics kernels take C-contiguous
        float64 only).
    n : int
        Expected length.

    Returns
    -------
    numpy.ndarray or None
        None when missing, not convertible, of another length or not
        finite.

    """
    if value is None:
        return None
    if type(value) is np.ndarray and value.dtype == np.float64 and value.flags.c_contiguous:
        arr = value
    else:
        try:
            arr = np.ascontiguousarray(value, dtype=float)
        except (TypeError, ValueError):
            return None
    if arr.shape != (n,) or not finite(arr):
        return None
    return arr


def as_vector(value, n, name):
    """
    Give an argument as a C-contiguous float (n,) array, or raise.

    Parameters
    ----------
    value : array_like
        The argument (a conforming array is returned itself).
    n : int
        Expected length.
    name : str
        Argument name for the message.

    Returns
    -------
    numpy.ndarray
        (n,) float64, C-contiguous (values not checked: NaN passes).

    Raises
    ------
    InputError
        If it does not convert to n floats.

    """
    if type(value) is np.ndarray and value.dtype == np.float64 and value.flags.c_contiguous \
            and value.shape == (n,):
        return value
    try:
        arr = np.ascontiguousarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(name, f'expected {n} numbers, got {value!r}') from None
    if arr.shape != (n,):
        raise InputError(name, f'expected {n} values, got shape {arr.shape}')
    return arr


def setting_numbers(value, name, *, low=None, strict=False, high=None, allow_inf=False,
                    length=None):
    """
    Check the number or numbers of a settings record; give them hashable.

    Parameters
    ----------
    value : float or array_like
        A number, or a non-empty sequence of numbers.
    name : str
        Field name for error messages.
    low : float, optional
        Lower bound of every value (inclusive, or exclusive with ``strict``).
    strict : bool
        Require values > ``low``.
    high : float, optional
        Upper bound of every value (inclusive).
    allow_inf : bool
        Accept ``+inf``.
    length : int, optional
        Required number of values (then a sequence is required).

    Returns
    -------
    float or tuple of float
        A float for a number, a tuple for a sequence.

    Raises
    ------
    InputError
        Naming the field: not numbers, wrong length, NaN, infinity (unless
        allowed) or out of range.

    """
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(name, f'must be a number or numbers, got {value!r}') from None
    if arr.ndim > 1 or arr.size == 0 or (length is not None and arr.shape != (length,)):
        wanted = 'a number or a non-empty sequence' if length is None else f'{length} values'
        raise InputError(name, f'expected {wanted}, got {value!r}')
    if np.any(np.isnan(arr)) or np.any(arr == -np.inf) or (
            not allow_inf and not np.all(np.isfinite(arr))):
        raise InputError(name, f'must be finite, got {arr.tolist()}')
    if low is not None and np.any(arr <= low if strict else arr < low):
        raise InputError(name, f'must be {">" if strict else ">="} {low}, got {arr.tolist()}')
    if high is not None and np.any(arr > high):
        raise InputError(name, f'must be <= {high}, got {arr.tolist()}')
    return float(arr) if arr.ndim == 0 else tuple(float(v) for v in arr)


def setting_number(value, name, **bounds):
    """
    Check one number of a settings record.

    Parameters
    ----------
    value : float
        The number.
    name : str
        Field name for error messages.
    **bounds
        ``low``, ``strict``, ``high``, ``allow_inf`` of :func:`setting_numbers`.

    Returns
    -------
    float
        The number.

    Raises
    ------
    InputError
        Naming the field: not one number, or out of range.

    """
    checked = setting_numbers(value, name, **bounds)
    if isinstance(checked, tuple):
        raise InputError(name, f'must be one number, got {value!r}')
    return checked


def setting_integers(value, name, *, low=0):
    """
    Check the integers of a settings record (joint indices, counts).

    Parameters
    ----------
    value : int or array_like
        An integer, or a non-empty sequence of integers.
    name : str
        Field name for error messages.
    low : int
        Smallest value allowed.

    Returns
    -------
    int or tuple of int
        An int for a number, a tuple for a sequence.

    Raises
    ------
    InputError
        Naming the field: empty, not integers or below ``low``.

    """
    arr = np.array(value, dtype=object)
    items = arr.ravel().tolist()
    try:
        ints = [int(v) for v in items]
    except (TypeError, ValueError, OverflowError):
        ints = None
    if arr.ndim > 1 or not items or ints is None or any(
            isinstance(v, (bool, np.bool_)) or v != i for v, i in zip(items, ints)):
        raise InputError(name, f'expected integers, got {value!r}')
    if min(ints) < low:
        raise InputError(name, f'must be >= {low}, got {ints}')
    return ints[0] if arr.ndim == 0 else tuple(ints)
