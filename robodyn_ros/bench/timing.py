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
Timing helpers for benchmarks on a small, noisy machine.

Every compared call is timed in the same run, interleaved (the order rotates
from one repeat to the next), and the median over repeats is reported.
Statements are timed with :mod:`timeit` so that no lambda sits between the
loop and the call being measured.
"""

import statistics
import sys
import time
import timeit

_STARTED = time.monotonic()


def phase(text):
    """
    Announce a phase of a benchmark on stderr (so that no bench is silent for long).

    Parameters
    ----------
    text : str
        What starts now.

    """
    print(f'robodyn bench: [{time.monotonic() - _STARTED:5.0f} s] {text}', file=sys.stderr,
          flush=True)


def calibrate(stmt, env, target):
    """
    Find the number of loops that takes about ``target`` seconds.

    Parameters
    ----------
    stmt : str
        Statement to time.
    env : dict
        Its globals.
    target : float
        Wanted duration of one timing [s].

    Returns
    -------
    int
        Loop count (>= 1).

    """
    timer = timeit.Timer(stmt, globals=env)
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= target / 4 or number >= 10 ** 7:
            return max(1, int(number * target / max(elapsed, 1e-9)))
        number *= 4


def interleaved(cases, repeat, target=0.01):
    """
    Time several statements interleaved; median time per execution.

    Parameters
    ----------
    cases : dict
        Name to ``(stmt, globals)``.
    repeat : int
        Number of rounds.
    target : float
        Duration of each timing [s].

    Returns
    -------
    dict
        Name to ``{'median': s, 'min': s, 'samples': [s, ...]}`` per execution.

    """
    timers = {}
    for name, (stmt, env) in cases.items():
        timers[name] = (timeit.Timer(stmt, globals=env), calibrate(stmt, env, target))
    samples = {name: [] for name in cases}
    names = list(cases)
    for r in range(repeat):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            timer, number = timers[name]
            samples[name].append(timer.timeit(number) / number)
    return {name: {'median': statistics.median(v), 'min': min(v), 'samples': v}
            for name, v in samples.items()}


def time_calls(funcs, repeat, warm=True):
    """
    Time callables that each run once per sample (long runs, e.g. batches).

    Parameters
    ----------
    funcs : dict
        Name to a callable without arguments.
    repeat : int
        Number of rounds (interleaved, order rotating).
    warm : bool
        Run each call once untimed right before timing it, so that idle CPUs
        are awake (a virtual machine wakes a halted CPU slowly) and threads
        left spinning by the previous case (OpenMP) are absorbed.

    Returns
    -------
    dict
        Name to ``{'median': s, 'min': s, 'samples': [...]}`` per call.

    """
    samples = {name: [] for name in funcs}
    names = list(funcs)
    for name in names:
        funcs[name]()
    for r in range(repeat):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            if warm:
                funcs[name]()
            t0 = time.perf_counter()
            funcs[name]()
            samples[name].append(time.perf_counter() - t0)
    return {name: {'median': statistics.median(v), 'min': min(v), 'samples': v}
            for name, v in samples.items()}
