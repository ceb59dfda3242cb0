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

"""Hypothesis strategies for every board message, with values on the fixed-point grids."""

from hypothesis import strategies as st
from robodyn_ros.hardware.board import messages as m

U64 = st.integers(0, 2**64 - 1)
AXES = st.integers(1, m.MAX_AXES)


def _grid(scale, low, high):
    """Floats that are exact multiples of 1 / scale (so they round-trip exactly)."""
    return st.integers(low, high).map(lambda k: k / scale)


CURRENT = _grid(m.CURRENT_SCALE, -2**31, 2**31 - 1)
POSITIVE_CURRENT = _grid(m.CURRENT_SCALE, 1, 2**32 - 1)
TORQUE_CONSTANT = _grid(m.TORQUE_CONSTANT_SCALE, 1, 2**32 - 1)
GEAR = st.integers(-2**31, 2**31 - 1).filter(lambda k: k != 0).map(
    lambda k: k / m.GEAR_RATIO_SCALE)
PERIOD = _grid(m.TIME_SCALE, 1, 2**32 - 1)
COUNTS = st.integers(1, 2**32 - 1)


def _per_axis(n, *strategies):
    return st.tuples(*(st.lists(s, min_size=n, max_size=n).map(tuple) for s in strategies))


@st.composite
def identify(draw):
    n = draw(AXES)
    counts, currents = draw(_per_axis(n, COUNTS, POSITIVE_CURRENT))
    return m.Identify(draw(st.integers(1, 255)), draw(st.tuples(*[st.integers(0, 255)] * 3)),
                      draw(PERIOD), counts, currents)


@st.composite
def configure(draw):
    n = draw(AXES)
    limit, kt, gear, counts = draw(_per_axis(n, POSITIVE_CURRENT, TORQUE_CONSTANT, GEAR, COUNTS))
    return m.Configure(draw(PERIOD), limit, kt, gear, counts)


@st.composite
def set_currents(draw):
    n = draw(AXES)
    return m.SetCurrents(draw(U64), draw(_per_axis(n, CURRENT))[0])


FLOAT32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
GAIN32 = st.floats(min_value=0.0, width=32, allow_infinity=False)


@st.composite
def set_impedance(draw):
    n = draw(st.integers(1, m.SetImpedance.max_axes))
    return m.SetImpedance(draw(U64), *draw(_per_axis(n, FLOAT32, FLOAT32, GAIN32, GAIN32,
                                                     FLOAT32)))


@st.composite
def state_report(draw):
    n = draw(AXES)
    counts, currents = draw(_per_axis(n, st.integers(-2**31, 2**31 - 1), CURRENT))
    faults = draw(st.integers(0, m.FAULT_MASK))
    status = draw(st.integers(0, m.STATUS_MASK)) & ~m.Status.FAULT
    if faults:
        status |= m.Status.FAULT
    return m.StateReport(draw(U64), int(status), faults, draw(U64), draw(st.integers(0, 0xFFFF)),
                         counts, currents)


def fault_report():
    axis = st.one_of(st.integers(0, m.MAX_AXES - 1), st.just(m.BOARD_WIDE))
    return st.builds(m.FaultReport, U64, st.integers(1, m.FAULT_MASK), axis,
                     st.integers(-2**31, 2**31 - 1))


def ack():
    return st.builds(m.Ack, st.sampled_from([int(r) for r in m.ACKED_REQUESTS]),
                     st.integers(0, 0xFFFF), st.sampled_from([int(r) for r in m.Result]),
                     st.integers(0, 0xFFFF))


def messages():
    """Any message of the protocol."""
    return st.one_of(
        st.just(m.IdentifyRequest()), st.just(m.Enable()), st.just(m.Disable()),
        st.just(m.ClearFault()), st.builds(m.Heartbeat, U64),
        st.builds(m.HeartbeatReply, U64, U64), identify(), configure(), set_currents(),
        set_impedance(), state_report(), fault_report(), ack())
