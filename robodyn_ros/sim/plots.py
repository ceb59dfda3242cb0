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

"""PNG plots of closed-loop runs (matplotlib, no display needed)."""

import os
import textwrap

import numpy as np


def _pyplot():
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def _per_joint(plt, runs, values, ylabel, title, path):
    n = runs[0].q.shape[1]
    cols = 2 if n > 3 else 1
    rows = int(np.ceil(n / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(7 * cols, 2.2 * rows + 0.8), squeeze=False,
                             sharex=True)
    for j in range(n):
        ax = axes[j % rows, j // rows]
        for res in runs:
            ax.plot(res.times, values(res)[:, j], lw=0.9, label=res.label)
        ax.set_ylabel(f'joint {j + 1}\n{ylabel}')
        ax.grid(alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel('time [s]')
    for k in range(n, rows * cols):
        axes[k % rows, k // rows].set_visible(False)
    axes[0, 0].legend(fontsize=7, loc='best')
    fig.suptitle('\n'.join(textwrap.wrap(title, 70 * cols)), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_runs(runs, folder, stem, title=''):
    """
    Write error, torque and estimate plots of several runs.

    Parameters
    ----------
    runs : sequence of SimResult
        Runs over the same joints (e.g. one per controller).
    folder : str
        Output folder (created if missing).
    stem : str
        File-name prefix.
    title : str
        Figure title.

    Returns
    -------
    list of str
        Paths written: ``<stem>_error.png``, ``<stem>_torque.png`` and, if
        a run has a payload estimate, ``<stem>_payload.png``.

    """
    plt = _pyplot()
    os.makedirs(folder, exist_ok=True)
    paths = [
        _per_joint(plt, runs, lambda r: np.degrees(r.error), 'error [deg]',
                   f'{title}: tracking error', os.path.join(folder, f'{stem}_error.png')),
        _per_joint(plt, runs, lambda r: r.tau, 'torque [N m]', f'{title}: torque',
                   os.path.join(folder, f'{stem}_torque.png')),
    ]
    with_mass = [r for r in runs if 'payload_mass' in r.estimates]
    if with_mass:
        fig, ax = plt.subplots(figsize=(7, 3))
        for r in with_mass:
            ax.plot(r.times, r.estimates['payload_mass'], label=r.label)
        ax.set_xlabel('time [s]')
        ax.set_ylabel('payload estimate [kg]')
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title('\n'.join(textwrap.wrap(f'{title}: payload estimate', 80)), fontsize=9)
        fig.tight_layout()
        path = os.path.join(folder, f'{stem}_payload.png')
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths
