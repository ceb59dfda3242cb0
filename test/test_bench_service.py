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


"""``robodyn bench service`` on tiny inputs: the sections run and report (no timing asserted)."""

from robodyn_ros.bench import service
from robodyn_ros.bench.service_report import format_service, goals


def test_sections_run_and_format():
    """Round trips, flood, oversize, a killed worker, chunks, planner: figures and report."""
    res = {'settings': {'robot': 'puma560', 'quick': True, 'cpus': 2, 'load_before': None,
                        'load_after': None, 'date': 'today'}}
    res['round_trips'] = service.round_trips('puma560', (10, 200), 3,
                                             ('service + 2 worker processes',))
    split = res['round_trips']['service + 2 worker processes']
    assert split['200']['count'] == 3 and 0 < split['200']['p50'] <= split['200']['max']
    assert int(split['service_counters']['chunks_answered']) >= 2 * 3
    res['flood'] = service.flood('puma560', 30, 50, runs=('small_queue',), small_queue=100)
    flood = res['flood']['small_queue']
    assert flood['answered'] == 30 and flood['duplicates'] == 0
    assert flood['results'] + flood['busy'] == 30 and flood['other_errors'] == 0
    assert flood['rss']['peak'] >= flood['rss_before']['now'] > 0
    res['oversize'] = service.oversize('puma560', (3000,), max_points=100)
    assert res['oversize']['3000']['code'] == 'too_large'
    res['killed_worker'] = service.killed_worker('puma560', 400)
    killed = res['killed_worker']['killed']
    assert killed['identical'] and int(killed['after']['chunks_local']) == 1
    res['chunks'] = service.chunks('puma560', (100,), 3)
    res['planner'] = service.planner('puma560', 1, ('uniform',))
    assert res['planner']['uniform']['served']
    text = format_service(res)
    for needle in ('Round trips', 'Flood', 'max_points', 'frozen and killed', 'Chunks',
                   'Planner', '| 200 |'):
        assert needle in text, needle
    assert [g[0] for g in goals(res)] == ['planner (uniform timing) with the service / '
                                          'in-process, p50']
