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

"""The lock-step thread team: barriers between levels, real threads, errors."""

import threading

import pytest
from robodyn_ros.errors import InputError
from robodyn_ros.parallel.team import LockstepTeam


def test_levels_are_separated_by_barriers():
    """What a level writes is complete before the next level reads it."""
    workers, levels = 4, 30
    with LockstepTeam(workers) as team:
        data = [[0] * workers for _ in range(levels + 1)]
        seen_threads = set()

        def cell(k, j):
            def f():
                seen_threads.add(threading.get_ident())
                # Reads the whole previous level: all of it must be there.
                data[k + 1][j] = sum(data[k]) + 1
            return f
        data[0] = [1] * workers
        plan = [[cell(k, j) for j in range(workers)] for k in range(levels)]
        team.run(plan)
        expected = workers
        for k in range(1, levels + 1):
            assert data[k] == [expected + 1] * workers
            expected = workers * (expected + 1)
        assert len(seen_threads) == workers


def test_partial_levels_and_busy_times():
    """Levels may leave workers idle (None); timed runs report busy time per worker."""
    with LockstepTeam(3) as team:
        out = []
        plan = [[lambda: out.append(1)], [None, lambda: out.append(2)], []]
        busy = team.run(plan, timed=True)
        assert sorted(out) == [1, 2] and len(busy) == 3 and busy[2] == 0.0
        assert busy[0] > 0.0 and busy[1] > 0.0


def test_error_in_a_worker_propagates_and_team_recovers():
    """An exception in any worker reaches the caller; the team still runs afterwards."""
    with LockstepTeam(3) as team:
        def boom():
            raise ValueError('boom')
        with pytest.raises(ValueError, match='boom'):
            team.run([[None, None, boom], [lambda: None] * 3])
        with pytest.raises(ValueError, match='boom'):
            team.run([[boom]])
        hits = []
        team.run([[lambda: hits.append(0), lambda: hits.append(1), lambda: hits.append(2)]])
        assert sorted(hits) == [0, 1, 2]


def test_single_worker_and_bad_counts():
    """One worker runs in the caller; zero workers and a closed team are refused."""
    team = LockstepTeam(1)
    ids = []
    team.run([[lambda: ids.append(threading.get_ident())]])
    assert ids == [threading.get_ident()]
    team.close()
    team.close()
    with pytest.raises(InputError):
        team.run([[lambda: None]])
    with pytest.raises(InputError):
        LockstepTeam(0)
