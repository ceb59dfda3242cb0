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
Load URDF files with sdformat's own parser (the URDF conversion Gazebo runs).

``test/sdformat_check.cpp`` is compiled against the system's libsdformat
(Debian: ``libsdformat-dev``, which ``.ci/run`` installs when it is missing)
and cached next to the dynamics kernels, named after a hash of its source and
compile command, as the kernels are.
"""

from dataclasses import dataclass, field
import hashlib
import os
import shutil
import subprocess
import tempfile

from robodyn_ros.dynamics.codegen.build import cache_dir

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sdformat_check.cpp')
INSTALL_HINT = ('needs libsdformat and a C++ compiler: apt-get install libsdformat-dev g++ '
                'pkg-config (.ci/run installs them)')


@dataclass
class SdfResult:
    """
    What sdformat made of one file.

    Attributes
    ----------
    errors : list of str
        sdformat's error messages.
    model : str or None
        Model name (None when there is no model).
    links : dict
        Link name -> mass [kg].
    joints : dict
        Joint name -> (parent link, child link).

    """

    errors: list = field(default_factory=list)
    model: str = None
    links: dict = field(default_factory=dict)
    joints: dict = field(default_factory=dict)


def _package():
    """Return the pkg-config name of the newest installed sdformat, or None."""
    if shutil.which('pkg-config') is None:
        return None
    out = subprocess.run(['pkg-config', '--list-all'], capture_output=True, text=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.startswith('sdformat')]
    names = [n for n in names if n[len('sdformat'):].isdigit()]
    return max(names, key=lambda n: int(n[len('sdformat'):]), default=None)


def checker():
    """
    Return the path of the compiled check program, built on first use and cached.

    Returns
    -------
    str
        Executable path.

    Raises
    ------
    AssertionError
        When sdformat or the compiler is missing or the build fails (with
        the way to install them).

    """
    package = _package()
    compiler = os.environ.get('CXX') or shutil.which('g++') or shutil.which('c++')
    assert package is not None and compiler, f'sdformat check {INSTALL_HINT}'
    flags = subprocess.run(['pkg-config', '--cflags', '--libs', package], capture_output=True,
                           text=True, check=True).stdout.split()
    with open(SOURCE, 'rb') as fh:
        source = fh.read()
    command = [compiler, '-O1', SOURCE, *flags]
    key = hashlib.sha256(source + ' '.join(command).encode()).hexdigest()[:16]
    folder = cache_dir()
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f'sdformat_check-{key}')
    if os.path.isfile(path):
        return path
    fd, tmp = tempfile.mkstemp(dir=folder, prefix='.sdformat_check-')
    os.close(fd)
    try:
        done = subprocess.run(command[:2] + ['-o', tmp] + command[2:], capture_output=True,
                              text=True)
        assert done.returncode == 0, f'building the sdformat check failed: {done.stderr}'
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def load_with_sdformat(paths):
    """
    Load URDF files with sdformat.

    Parameters
    ----------
    paths : list of str
        URDF files.

    Returns
    -------
    dict
        Path -> :class:`SdfResult`.

    """
    done = subprocess.run([checker(), *paths], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results, current = {}, None
    for line in done.stdout.splitlines():
        kind, _, rest = line.partition(' ')
        if kind == 'file':
            current = results[rest] = SdfResult()
        elif kind == 'error':
            current.errors.append(rest)
        elif kind == 'model':
            current.model = rest
        elif kind == 'link':
            name, mass = rest.rsplit(' ', 1)
            current.links[name] = float(mass)
        elif kind == 'joint':
            name, parent, child = rest.split(' ')
            current.joints[name] = (parent, child)
    return results
