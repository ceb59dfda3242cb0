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

"""The README's dynamics and kernel snippets run as written and say what they print."""

import contextlib
import io
import os
import re

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python_block_after(text, marker):
    """Give the first ```python block after ``marker``."""
    start = text.index(marker)
    match = re.compile(r'```python\n(.*?)```', re.S).search(text, start)
    return match.group(1)


def test_dynamics_and_kernel_snippets():
    """Both snippets run; each forward dynamics inverts its inverse dynamics."""
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as fh:
        text = fh.read()
    dynamics = _python_block_after(text, '## Dynamics from Python')
    kernel = _python_block_after(text, '**Customized kernels.**')
    env = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(dynamics, 'README dynamics', 'exec'), env)
        assert np.allclose(env['qdd_back'], env['qdd'], rtol=0, atol=1e-10)
        exec(compile(kernel, 'README kernels', 'exec'), env)
    qdd = env['qdd']
    assert np.allclose(env['qdd_back'], qdd, rtol=0, atol=1e-12)
    assert np.allclose(env['qdd_rigid'], qdd, rtol=0, atol=1e-12)
    # The printed ratio is the one the comment shows.
    comment = re.search(r'print\(qdd_back / qdd\)\s+# (\[.*\])', kernel).group(1)
    assert printed.getvalue().strip() == comment
    assert comment == str(np.ones(6))
