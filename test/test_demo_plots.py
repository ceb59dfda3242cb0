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

"""Tests of robodyn_ros.demo.plots: every panel of the demo's figures has its axes labelled."""

from types import SimpleNamespace

import matplotlib
import numpy as np
import pytest

from robodyn_ros.demo.plots import plot_errors, plot_tracking
from robodyn_ros.model import load_robot

matplotlib.use('Agg')


def _run(model, law, with_payload):
    t = np.linspace(0.0, 2.0, 50)
    n = model.n
    trace = {'t': t, 'q': np.zeros((50, n)), 'q_ref': np.zeros((50, n)),
             'error': np.full((50, n), 1e-3),
             'payload_t': t if with_payload else np.array([]),
             'payload': np.full(50, 1.9) if with_payload else np.array([])}
    return SimpleNamespace(law=law, trace=trace)


@pytest.mark.parametrize('plot', ['errors', 'tracking'])
def test_every_panel_has_a_time_axis_label(plot, tmp_path, monkeypatch):
    """errors.png and tracking_<law>.png: each visible panel says time [s] on its x axis."""
    from matplotlib.figure import Figure
    figures = []
    save = Figure.savefig

    def keep(fig, *args, **kwargs):
        figures.append(fig)
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, 'savefig', keep)
    model = load_robot('ma3000')
    runs = [_run(model, 'computed_torque', False), _run(model, 'mbvsst', True)]
    if plot == 'errors':
        plot_errors(model, runs, 2.0, str(tmp_path / 'errors.png'))
    else:
        plot_tracking(model, runs[1], str(tmp_path / 'tracking.png'))
    (fig,) = figures
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == model.n + (1 if plot == 'errors' else 0)
    for ax in visible:
        assert ax.get_xlabel() == 'time from the plan start [s]'
        assert ax.get_ylabel()
