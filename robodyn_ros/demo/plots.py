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

"""PNG plots of a demo run (matplotlib, no display needed)."""

import numpy as np

from .report import joint_units


def _pyplot():
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def _grid(plt, n, extra=0):
    cols = 2 if n + extra > 3 else 1
    rows = int(np.ceil((n + extra) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(7 * cols, 2.2 * rows + 0.8), squeeze=False,
                             sharex=True)
    return fig, [axes[k % rows, k // rows] for k in range(rows * cols)]


def plot_tracking(model, run, path):
    """
    Plot reference and measured positions of one run, one panel per joint.

    Parameters
    ----------
    model : RobotModel
        Joint names and kinds.
    run : LawRun
        The run (its ``trace``).
    path : str
        PNG file to write.

    Returns
    -------
    str
        ``path``.

    """
    plt = _pyplot()
    units = joint_units(model)
    tr = run.trace
    fig, axes = _grid(plt, model.n)
    for j, name in enumerate(model.joint_names):
        scale, unit = units[j]
        ax = axes[j]
        if len(tr['t']):
            ax.plot(tr['t'], tr['q_ref'][:, j] * scale, 'k--', lw=1.0, label='planned')
            ax.plot(tr['t'], tr['q'][:, j] * scale, lw=1.0, label='measured')
        ax.set_ylabel(f'{name} [{unit}]')
        ax.grid(alpha=0.3)
    for ax in axes[model.n:]:
        ax.set_visible(False)
    axes[0].legend(loc='best', fontsize=8)
    for ax in axes[:model.n]:
        ax.set_xlabel('time from the plan start [s]')
    fig.suptitle(f'{run.law}: joint positions from joint_states against the plan')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def plot_errors(model, runs, true_mass, path):
    """
    Plot the tracking error of every run per joint, and the payload estimates.

    Parameters
    ----------
    model : RobotModel
        Joint names and kinds.
    runs : list of LawRun
        The runs.
    true_mass : float
        The simulated payload [kg] (drawn as a line).
    path : str
        PNG file to write.

    Returns
    -------
    str
        ``path``.

    """
    plt = _pyplot()
    units = joint_units(model)
    with_mass = [r for r in runs if len(r.trace['payload'])]
    fig, axes = _grid(plt, model.n, 1 if with_mass else 0)
    for j, name in enumerate(model.joint_names):
        scale, unit = units[j]
        for r in runs:
            if len(r.trace['t']):
                axes[j].plot(r.trace['t'], r.trace['error'][:, j] * scale, lw=0.9, label=r.law)
        axes[j].set_ylabel(f'{name} error [{unit}]')
        axes[j].grid(alpha=0.3)
    if with_mass:
        ax = axes[model.n]
        for r in with_mass:
            ax.plot(r.trace['payload_t'], r.trace['payload'], lw=1.0, label=r.law)
        ax.axhline(true_mass, color='k', ls='--', lw=1.0, label='true')
        ax.set_ylabel('payload estimate [kg]')
        ax.grid(alpha=0.3)
        ax.legend(loc='best', fontsize=8)
    shown = model.n + (1 if with_mass else 0)
    for ax in axes[shown:]:
        ax.set_visible(False)
    for ax in axes[:shown]:
        ax.set_xlabel('time from the plan start [s]')
    axes[0].legend(loc='best', fontsize=8)
    fig.suptitle('tracking error q_ref - q per law')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
