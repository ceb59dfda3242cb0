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
The service on one host, its workers on another: two network namespaces joined by a veth pair.

Needs root and iproute2 (``ip netns``); skipped with the reason elsewhere.
Answers across the link must equal the in-process computation bit for bit,
and a link cut while a request's chunks cross it must still be answered,
from the service's own computation.
"""

import pytest
from robodyn_ros.bench.netns import HostPair, unavailable
from robodyn_ros.bench.service import cut_mid_request
from robodyn_ros.bench.service_graph import Graph

REASON = unavailable()


@pytest.mark.skipif(bool(REASON), reason=f'no network namespaces here: {REASON}')
def test_workers_across_a_link_and_the_link_cut_mid_request():
    """Identical answers through 2 workers in the other namespace; a cut one from the service."""
    with HostPair(rate_mbit=400) as hosts, Graph('puma560', hosts) as graph:
        graph.service(side=0, scheme='workers', threads=1, min_chunk=100, worker_timeout=2.0)
        for k in range(2):
            graph.worker(k, side=1)
        res = graph.peer([{'op': 'wait', 'workers': 2},
                          {'op': 'check', 'points': 3000, 'seed': 1},
                          {'op': 'check', 'points': 10, 'seed': 2}], side=0)
        for check in res[1:]:
            assert check['identical'], check
        counters = res[2]['after']
        assert counters['chunks_answered'] == counters['chunks_sent'] == '3'   # 2 + 1 chunks
        assert counters['chunks_local'] == '0' and counters['workers'] == '2'
        crossed = hosts.link_bytes(1)[1]
        assert crossed > 3000 * 144                  # the states went over the link
        cut = cut_mid_request(hosts, graph, points=50_000)   # 7.2 MB at 400 Mbit/s: 0.14 s
        assert cut['identical'] and cut['crossed_bytes'] > 0, cut
        assert cut['chunks_local'] >= 1 and int(cut['after']['requests']) == int(
            cut['before']['requests']) + 1
        assert int(cut['after']['errors']) == 0
