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


"""``robodyn bench planner-scaling`` on small inputs: it runs and reports (no timing asserted)."""

from robodyn_ros.bench import planner_scaling
from robodyn_ros.nodes.bench_peers import planner_stop_latency


def test_scaling_rows_refusal_and_report():
    """Every case gives a plan or a reason; the long goal is refused; the report shows them."""
    res = planner_scaling.plan_scaling('puma560', (10, 200), timings=('uniform',), repeat=1)
    rows = res['rows']
    assert [(r['path'], r['waypoints']) for r in rows] == [('smooth', 10), ('smooth', 200),
                                                           ('walk', 10), ('walk', 200)]
    for r in rows:
        assert r['time'] > 0 and ('samples' in r or 'refused' in r or 'failed' in r), r
        if 'samples' in r:
            assert r['peak_mb'] > 0 and r['samples'] <= 600 / 0.01 + 2
    assert res['long_goal']['refused'] and 'max_duration' in res['long_goal']['reason']
    stop = planner_stop_latency('puma560', 300, (0.0,), ('time_parameterization:=uniform',))
    assert len(stop['stops']) == 1 and stop['stops'][0]['answer'] > 0
    assert stop['plan']['points'] > 10
    text = planner_scaling.format_scaling({'settings': {'robot': 'puma560', 'load_before': None,
                                                        'date': 'today'},
                                           'scaling': res, 'stop': stop})
    for needle in ('| uniform | walk | 200 |', 'refused in', 'answered in', 'nothing planned'):
        assert needle in text, needle
