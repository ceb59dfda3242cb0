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

"""Checks of the numerical arguments of the dynamics functions."""

import numpy as np

from ..errors import InputError


def state_array(value, n, argument, batch_shape=None, finite=True):
    """
    Validate one state vector ``(n,)`` or a batch ``(N, n)``.

    Parameters
    ----------
    value : array_like
        The argument.
    n : int
        Number of joints.
    argument : str
        Argument name for error messages (``'q'``, ``'qd'``, ...).
    batch_shape : tuple, optional
        Shape the argument must have (that of ``q``); never broadcast.
    finite : bool
        Check that every entry is finite (callers that check a large batch
        piecewise elsewhere pass False and call again on failure).

    Returns
    -------
    numpy.ndarray
        A float array, C-contiguous.

    Raises
    ------
    InputError
        On a wrong shape or a NaN/inf entry (naming the row and joint).

    """
    try:
        arr = np.ascontiguousarray(value, dtype=float)
    except (TypeError, ValueError):
        raise InputError(argument, f'must be numbers, got {type(value).__name__}') from None
    if batch_shape is not None:
        if arr.shape != batch_shape:
            raise InputError(argument, f'expected shape {batch_shape} (same as q), got '
                                       f'{arr.shape}')
    elif arr.ndim not in (1, 2) or arr.shape[-1] != n:
        raise InputError(argument, f'expected shape ({n},) or (N, {n}), got {arr.shape}')
    if finite and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        where = f'entry {bad[0]}' if arr.ndim == 1 else f'row {bad[0]}, joint {bad[1]}'
        raise InputError(argument, f'{where} is {arr[tuple(bad)]} (must be finite)')
    return arr


def state_batches(model, q, qd, qdd):
    """
    Validate a state and give it as batches.

    Parameters
    ----------
    model : RobotModel
        The model.
    q, qd, qdd : array_like
        Positions, velocities, accelerations, (n,) or (N, n), same shape.

    Returns
    -------
    tuple
        ``(single, q, qd, qdd)``: whether one state was given, then the
        three as float arrays (N, n).

    Raises
    ------
    InputError
        On a wrong shape or a non-finite value (never broadcast).

    """
    qa = state_array(q, model.n, 'q')
    qda = state_array(qd, model.n, 'qd', qa.shape)
    qdda = state_array(qdd, model.n, 'qdd', qa.shape)
    return (qa.ndim == 1,) + tuple(np.atleast_2d(x) for x in (qa, qda, qdda))
