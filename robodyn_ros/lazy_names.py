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
A package's public names imported on first use (PEP 562).

``robodyn_ros.control`` and ``robodyn_ros.sim`` offer their main classes at
package level, but importing them all at once loads every control law,
numba and SciPy: seconds of start-up for a process (a simulated board, a
hardware interface) that needs one module of the package. Such a package
sets ``__getattr__ = module_getattr(__name__, WHERE)``.
"""

import importlib
import sys


def module_getattr(package, where):
    """
    Build a package's ``__getattr__`` that imports each public name's module on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : dict
        Public name -> module that defines it, relative to the package (``'.base'``).

    Returns
    -------
    callable
        ``__getattr__(name)``: the name's value, kept in the package from then
        on; AttributeError for any other name.

    """
    def __getattr__(name):
        if name not in where:
            raise AttributeError(f'module {package!r} has no attribute {name!r}')
        value = getattr(importlib.import_module(where[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
