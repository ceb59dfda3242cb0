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
Loop-form functions compiled by numba once per process, with their Python form as the fallback.

Some per-cycle arithmetic is written twice: as NumPy expressions (the
reference, readable, used by the tests as the yardstick) and as plain loops
over the joints that numba compiles (a few microseconds a call instead of
tens). :class:`CompiledFunctions` holds one set of such loop functions:

- :meth:`~CompiledFunctions.load` compiles them, or loads them from numba's
  on-disk cache, in the calling thread (at configure, in ``robodyn warm``);
- :meth:`~CompiledFunctions.start` does the same in a background thread, once
  per process, and returns at once (a simulated board must answer before
  the compile is done);
- :meth:`~CompiledFunctions.get` gives the compiled functions once they are
  there, else None: the caller runs its NumPy form meanwhile, and always
  without numba or with ``ROBODYN_NO_NUMBA=1``.

After the first compile no further compile is allowed: an argument of
another type (a strided or read-only array, an integer array) raises
``TypeError``, and the caller takes its NumPy form for that call, so no
compile ever runs inside a cycle. A numba failure warns once and leaves the
NumPy form in place.
"""

import os
import threading
import warnings

_REGISTERED = set()                 # helpers registered with numba (once per process)
_REGISTER_LOCK = threading.Lock()


class CompiledFunctions:
    """
    A set of loop-form functions, compiled together once per process.

    Parameters
    ----------
    what : str
        What they compute, for the warning of a failed compile.
    functions : sequence of callable
        The loop-form functions, in the order :meth:`get` returns them.
    warm : callable
        ``warm(compiled)`` calls each compiled function once with the
        argument types of the cycle (this compiles them).
    helpers : sequence of callable, optional
        Plain functions the loop forms call (registered with numba's
        ``register_jitable``; they stay Python functions).

    """

    def __init__(self, what, functions, warm, helpers=()):
        self.what = what
        self.functions = tuple(functions)
        self.warm = warm
        self.helpers = tuple(helpers)
        #: Held by :meth:`load` for the whole compile.
        self.lock = threading.Lock()
        self._start_lock = threading.Lock()     # only to start the thread once
        self._compiled = None
        self._failed = False
        self._thread = None

    def load(self):
        """
        Compile the functions (or load them from numba's cache) in this thread.

        Returns
        -------
        tuple or None
            The compiled functions, or None without numba (or with
            ``ROBODYN_NO_NUMBA=1``, or after a failed compile).

        """
        with self.lock:
            if self._compiled is not None or self._failed:
                return self._compiled
            if os.environ.get('ROBODYN_NO_NUMBA'):
                return None
            try:
                import numba
            except ImportError:
                return None
            try:
                from numba.extending import register_jitable
                with _REGISTER_LOCK:
                    for helper in self.helpers:
                        if helper not in _REGISTERED:   # callable from compiled code
                            register_jitable(helper)    # (it stays a Python function)
                            _REGISTERED.add(helper)
                jit = numba.njit(cache=True)
                compiled = tuple(jit(func) for func in self.functions)
                self.warm(compiled)            # compile (or load) now, not in a cycle
            except Exception as exc:  # noqa: B902 - any numba failure: the NumPy form stays
                self._failed = True
                warnings.warn(f'{self.what} could not be compiled ({type(exc).__name__}: '
                              f'{exc}); the NumPy form runs', RuntimeWarning)
                return None
            for func in compiled:
                func.disable_compile()         # another argument type: TypeError, no compile
            self._compiled = compiled
            return compiled

    def start(self):
        """Start :meth:`load` in a background thread, once per process (returns at once)."""
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self.load, daemon=True,
                                                name='compile ' + self.what)
                self._thread.start()

    def get(self):
        """
        Return the compiled functions once loaded, else None (never waits).

        Returns
        -------
        tuple or None
            The compiled functions, in the order given.

        """
        return self._compiled
