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
Compile a generated C module with the system compiler, cache it, load it.

The shared object is named after a hash of the C text, the compile command,
the Python ABI (``EXT_SUFFIX``, version) and the numpy version, and kept in
``$ROBODYN_CACHE_DIR`` or ``~/.cache/robodyn_ros/kernels``. It is compiled
to a temporary file in the same folder and renamed into place, so two
processes building the same kernel at once both end up loading a complete
file. The compiler is
``$ROBODYN_CC``, else ``$CC``, else the one Python was built with, else
``cc``; no setuptools.
"""

import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile

from .generate import MODULE_PLACEHOLDER
from ...errors import RobodynError

#: Compiler flags (no -ffast-math: results must match the numpy reference).
CFLAGS = ('-O2', '-fPIC', '-shared', '-fno-math-errno', '-std=c99', '-w')

_LOADED = {}


class CompilerUnavailable(RobodynError, RuntimeError):
    """No working C compiler, or compiling the generated module failed."""


def cache_dir():
    """
    Folder of the compiled kernels.

    Returns
    -------
    str
        ``$ROBODYN_CACHE_DIR`` or ``~/.cache/robodyn_ros/kernels``.

    """
    path = os.environ.get('ROBODYN_CACHE_DIR')
    if not path:
        base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'),
                                                                '.cache')
        path = os.path.join(base, 'robodyn_ros', 'kernels')
    return path


def compiler():
    """
    Command that starts the C compiler.

    Returns
    -------
    list of str
        The compiler and any flags that came with it.

    Raises
    ------
    CompilerUnavailable
        When no compiler executable can be found.

    """
    for text in (os.environ.get('ROBODYN_CC'), os.environ.get('CC'),
                 sysconfig.get_config_var('CC'), 'cc', 'gcc'):
        if not text:
            continue
        words = shlex.split(text)
        if words and shutil.which(words[0]):
            return words
        if os.environ.get('ROBODYN_CC') and text == os.environ['ROBODYN_CC']:
            raise CompilerUnavailable(f'ROBODYN_CC={text!r} is not an executable')
    raise CompilerUnavailable('no C compiler found (set ROBODYN_CC or CC)')


def numpy_flags():
    """
    Compiler flags for numpy's C API (output allocation), if its headers exist.

    Returns
    -------
    list of str
        ``['-DRD_HAVE_NUMPY', '-I<numpy include>']`` or empty.

    """
    try:
        import numpy
        include = numpy.get_include()
    except (ImportError, AttributeError):
        return []
    if not os.path.isfile(os.path.join(include, 'numpy', 'arrayobject.h')):
        return []
    return ['-DRD_HAVE_NUMPY', f'-I{include}']


def module_name(source, command):
    """
    Name the module of a source: ``rdk_<hash>``.

    Parameters
    ----------
    source : str
        C text with the module-name placeholder.
    command : sequence of str
        Compile command (without file names).

    Returns
    -------
    str
        The name.

    """
    ext = sysconfig.get_config_var('EXT_SUFFIX') or '.so'
    import numpy
    key = '\0'.join([source, ' '.join(command), ext, sys.version, numpy.__version__])
    return 'rdk_' + hashlib.sha256(key.encode()).hexdigest()[:24]


def load(source):
    """
    Compile (or reuse) and import a generated module.

    Parameters
    ----------
    source : str
        C text with :data:`~.generate.MODULE_PLACEHOLDER` as module name.

    Returns
    -------
    tuple
        ``(module, path of the shared object)``.

    Raises
    ------
    CompilerUnavailable
        When there is no compiler or the compilation fails.

    """
    cc = compiler()
    command = cc + list(CFLAGS) + numpy_flags()
    name = module_name(source, command)
    if name in _LOADED:
        return _LOADED[name]
    folder = cache_dir()
    ext = sysconfig.get_config_var('EXT_SUFFIX') or '.so'
    path = os.path.join(folder, name + ext)
    if not os.path.isfile(path):
        _compile(source.replace(MODULE_PLACEHOLDER, name), command, folder, path)
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    _LOADED[name] = (module, path)
    return module, path


def _compile(text, command, folder, path):
    os.makedirs(folder, exist_ok=True)
    include = sysconfig.get_paths()['include']
    fd, c_file = tempfile.mkstemp(suffix='.c', dir=folder)
    so_fd, so_tmp = tempfile.mkstemp(suffix='.so.tmp', dir=folder)
    os.close(so_fd)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as fh:
            fh.write(text)
        cmd = command + [f'-I{include}', c_file, '-o', so_tmp, '-lm']
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        except OSError as exc:
            raise CompilerUnavailable(f'cannot run {cmd[0]}: {exc}') from exc
        if proc.returncode != 0:
            raise CompilerUnavailable(f'{" ".join(cmd[:1])} failed ({proc.returncode}): '
                                      f'{proc.stderr.strip()[-2000:]}')
        os.replace(so_tmp, path)
    finally:
        for tmp in (c_file, so_tmp):
            if os.path.exists(tmp):
                os.unlink(tmp)
