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

"""Gantt chart of a list schedule (PNG, matplotlib without a display)."""

import os

from ..errors import InputError


def draw_gantt(schedule, path, title=None, labels=True):
    """
    Draw a schedule as a Gantt chart: processors down, levels across, one box per subtask.

    Boxes are coloured by link and carry the thesis's task code.

    Parameters
    ----------
    schedule : Schedule
        The schedule.
    path : str or os.PathLike
        Output file (PNG; the extension picks the format).
    title : str, optional
        Chart title (default: graph name, p, length, speed-up).
    labels : bool
        Write the task codes into the boxes.

    Returns
    -------
    str
        The path written.

    """
    import matplotlib
    matplotlib.use('Agg', force=False)
    from matplotlib import pyplot as plt
    from matplotlib.patches import Patch

    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError('gantt', f'folder {folder} does not exist')
    graph = schedule.graph
    p, length = schedule.processors, schedule.length
    cmap = plt.get_cmap('tab10' if graph.n <= 10 else 'tab20')
    width = min(60.0, max(8.0, 0.42 * length + 2.0))
    height = min(30.0, max(2.5, 0.45 * p + 1.5))
    fig, ax = plt.subplots(figsize=(width, height))
    for lev, tasks in enumerate(schedule.levels):
        for proc, k in enumerate(tasks):
            task = graph.tasks[k]
            ax.add_patch(plt.Rectangle((lev, proc), 0.96, 0.9, color=cmap(task.link % cmap.N),
                                       alpha=0.45 if task.step >= 26 else 0.85, lw=0))
            if labels:
                ax.text(lev + 0.48, proc + 0.45, task.label, ha='center', va='center',
                        fontsize=6, rotation=90 if p > 4 else 0)
    ax.set_xlim(0, length)
    ax.set_ylim(p, 0)
    ax.set_xlabel('level (one 3-flop subtask time)')
    ax.set_ylabel('processor')
    ax.set_yticks([k + 0.45 for k in range(p)])
    ax.set_yticklabels([str(k + 1) for k in range(p)])
    ax.set_title(title or (f'{graph.name}: {graph.size} subtasks on {p} processor(s), '
                           f'{length} levels, speed-up {schedule.speedup:.2f}, efficiency '
                           f'{100 * schedule.efficiency:.1f} %'))
    handles = [Patch(color=cmap(i % cmap.N), label=f'link {i + 1}') for i in range(graph.n)]
    ax.legend(handles=handles, loc='upper left', bbox_to_anchor=(1.0, 1.0), fontsize=7,
              title='dark: forward\nlight: backward', title_fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
