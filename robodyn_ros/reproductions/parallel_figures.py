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
The seeds' figures for the parallel schemes, as rebuilt in the seed digests.

Plain data: seed 004's schedule lengths and Stanford task set (Tables 4.3,
4.7, 4.8 and Appendix C), seed 003's Table 7.1 (row partition on
transputers), seed 000's speed-up formulas and prediction-error Tables 6.2,
6.4, 6.5, 6.6 with the digest's own reproductions. Lengths are in levels
(one 3-flop subtask time), times in ms, errors in percent of the full scale.
"""

import math

# ----------------------------------------------------------------------------- seed 004
#: Generic 6-link arm: thesis schedule lengths (Appendix C, Table 4.3) by p.
DHANARAJ_GENERIC_LENGTHS = {1: 231, 2: 116, 3: 78, 4: 58, 5: 47, 6: 39, 7: 34, 8: 31, 9: 30,
                            13: 27}
#: The seed-004 digest's re-implementation of the scheduler (230-task set).
DIGEST004_GENERIC = {1: 230, 2: 116, 3: 77, 4: 58, 5: 47, 6: 39, 7: 34, 8: 31, 9: 30, 10: 29,
                     11: 29, 12: 28, 13: 27}
#: Customized Stanford arm: thesis schedule lengths (Appendix C.9-C.15).
DHANARAJ_STANFORD_LENGTHS = {1: 156, 2: 79, 3: 52, 4: 39, 5: 32, 6: 29, 7: 27, 8: 27}
#: The digest's reproduction on its Table 4.7 graph.
DIGEST004_STANFORD = {1: 156, 2: 79, 3: 52, 4: 40, 5: 32, 6: 28, 7: 26, 8: 26}
#: Table 4.8, "present work": processing time [ms] on Intel 8086s (= levels x 0.135 ms).
DHANARAJ_STANFORD_MS = {1: 21.06, 2: 10.67, 3: 7.02, 4: 5.26, 5: 4.32, 6: 3.92, 7: 3.65,
                        8: 3.65}
#: The thesis's cost model: one level = 21.06 ms / 156 subtasks [s].
DHANARAJ_LEVEL_TIME = 21.06e-3 / 156
#: Generic 6-link graph: subtasks, layers, concurrency (Sec. 4.3.1, Table 4.3).
DHANARAJ_GENERIC_SHAPE = {'tasks': 231, 'layers': 27, 'width': 13}
#: Stanford customized graph (Table 4.7).
DHANARAJ_STANFORD_SHAPE = {'tasks': 156, 'layers': 27, 'width': 9}

#: Table 4.7: subtasks of the customized Stanford inverse dynamics (joint 3 prismatic).
TABLE_4_7 = tuple("""
110 120 121 122 201 202 123 124 125 203 204 205 206 207 208 209 210 211 216 217 303
218 219 306 401 402 224 225 403 404 405 318 319 406 407 408 501 502 324 325 409 410 411
503 504 505 418 419 422 506 507 508 601 602 423 424 425 509 510 511 603 604 605 518 519
522 606 607 608 523 524 525 609 610 611 618 619 624 625 626 627 628 629 638 641 642 643
526 527 528 529 530 531 532 537 538 539 540 541 542 543 426 427 428 429 430 431 432 437
438 439 440 441 442 443 326 327 328 329 330 331 332 338 339 340 341 342 343 226 227 228
229 230 231 232 233 235 238 239 240 241 242 243 126 127 130 131 132 135 137 138 139 140
141 142 143""".split())
#: Structure of the arm of Table 4.7: serial, joint 3 prismatic.
TABLE_4_7_PARENTS = (-1, 0, 1, 2, 3, 4)
TABLE_4_7_PRISMATIC = (False, False, True, False, False, False)

# ----------------------------------------------------------------------------- seed 003
#: Table 7.1 (MA3000, 3 DOF, T800 transputers): configuration -> figures.
#: Times [ms]; activity: busy share of each worker [%]. Lost cells are None.
MIRAB_TABLE_7_1 = {
    'serial': {'workers': 1, 'time_ms': 6.797},
    'rows': {'workers': 3, 'time_ms': 4.6, 'speedup': 1.478, 'efficiency': 0.49,
             'activity': (95.65, 43.48, 21.72)},
    'elements': {'workers': 13, 'time_ms': 2.832, 'speedup': 2.4, 'efficiency': 0.18},
    'elements_symmetric': {'workers': 10, 'time_ms': None, 'speedup': None,
                           'efficiency': 0.24},
    'row 1 split': {'workers': 4, 'time_ms': 2.75, 'speedup': 1.47, 'efficiency': 0.37},
    'row 2 split': {'workers': 4, 'time_ms': 1.175, 'speedup': 1.43, 'efficiency': 0.36},
    'row 3 split': {'workers': 4, 'time_ms': 0.733, 'speedup': 1.24, 'efficiency': 0.31},
}

# ----------------------------------------------------------------------------- seed 000
#: Modelled speed-ups of seed 000's per-link workers (Sec. 3.3, Ch. 4-5) as functions of n.
PER_LINK_MODELLED_SPEEDUP = {
    'serial with buffers': lambda n: 1.0,
    'parallel with buffers': lambda n: n / (0.62 * n + 0.38),
    'parallel with buffers, pipelined': lambda n: n / (0.43 * n + 0.57),
    'zero-order prediction': lambda n: float(n),
    'first-order prediction': lambda n: 257.0 * n / 334.0,
    'hybrid prediction': lambda n: n / (0.19 * n + 0.81),
}
#: Per-link operation counts of seed 000 Tables 2.1/2.2: 138 mul + 119 add.
PER_LINK_OPS = {'mul': 138, 'add': 119, 'total': 257}
#: Extra operations per link of the first-order corrections (Sec. 5.2.2).
FIRST_ORDER_EXTRA_OPS = 77

#: Durations of the error tables [s] and the sample period of their trajectories [s].
ERROR_TABLE_DURATIONS = (8.0, 6.0, 4.0, 2.0, 1.0)
ERROR_TABLE_PERIOD = 0.005

#: Table 6.2, zero-order prediction, Trajectory 1: thesis and [digest reproduction].
TABLE_6_2 = {
    8.0: ((2.6, .19, .27, .16, .17, 1.6), (2.64, .19, .28, .16, .18, 1.68)),
    6.0: ((1.9, .27, .35, .21, .30, 2.2), (1.99, .27, .35, .21, .30, 2.23)),
    4.0: ((1.78, .46, .49, .35, .76, 3.3), (1.78, .46, .49, .36, .76, 3.32)),
    2.0: ((3.21, 1.54, .97, 1.88, 3.6, 6.5), (3.21, 1.54, .98, 1.89, 3.64, 6.52)),
    1.0: ((6.15, 5.55, 1.97, 13.0, 9.25, 12.6), (6.14, 5.52, 1.97, 12.91, 9.25, 12.59)),
}
#: Table 6.4, zero-order prediction, Trajectory 2 (L5 at 4 s: OCR "11.0", read as 1.0).
TABLE_6_4 = {
    8.0: ((1.73, .16, .23, .18, .24, 3.07), (1.73, .16, .24, .19, .25, 3.14)),
    6.0: ((1.6, .22, .31, .23, .4, 4.09), (1.63, .22, .31, .24, .41, 4.18)),
    4.0: ((2.15, .36, .49, .43, 1.0, 6.12), (2.15, .36, .50, .44, 1.01, 6.25)),
    2.0: ((4.4, 1.07, 1.27, 3.29, 4.96, 12.1), (4.40, 1.08, 1.28, 3.30, 4.96, 12.38)),
    1.0: ((8.6, 3.95, 2.93, 13.7, 9.42, 23.7), (8.64, 3.98, 2.95, 13.83, 9.45, 24.23)),
}
#: Table 6.5, first-order prediction: (trajectory, duration) -> thesis values.
TABLE_6_5 = {
    (1, 2.0): (1.75, 1.10, .67, 1.26, 1.40, 1.88),
    (2, 2.0): (2.51, .79, .78, 1.93, 2.4, 2.2),
    (1, 1.0): (3.55, 3.62, 1.39, 8.63, 4.19, 5.37),
    (2, 1.0): (5.17, 2.46, 1.66, 8.49, 4.74, 6.99),
}
#: The digest's literal first-order implementation (Trajectory 1 only).
DIGEST_6_5_LITERAL = {
    (1, 2.0): (1.91, 1.17, 1.22, 1.28, 3.55, 1.89),
    (1, 1.0): (3.86, 3.89, 2.48, 8.76, 9.13, 5.37),
}
#: Table 6.6, hybrid: (trajectory, duration) -> (thesis, digest reproduction).
TABLE_6_6 = {
    (1, 2.0): ((1.72, 1.10, .56, 1.3, 3.5, 0.0), (1.73, 1.11, .56, 1.40, 3.50, 0.0)),
    (2, 2.0): ((2.27, .79, .7, 2.24, 3.77, 0.0), (2.28, .80, .70, 2.24, 3.77, 0.0)),
    (1, 1.0): ((3.43, 3.5, 1.05, 9.43, 8.93, 0.0), (3.43, 3.51, 1.06, 9.43, 8.93, 0.0)),
    (2, 1.0): ((4.53, 2.4, 1.5, 9.62, 7.1, 0.0), (4.54, 2.41, 1.52, 9.66, 7.11, 0.0)),
}

# Trajectories of seed 000 (Sec. 2.2.5, 6.1.3): joint knots, degrees (joint 3 in m).
_DEG = math.pi / 180.0
#: Trajectory 1 knots J0..J3 (thesis table, with the thesis's q6 values).
TRAJECTORY_1_KNOTS_DEG = (
    (-74.96, 100.11, 0.57, 30.20, 73.75, 1.15),
    (-55.06, 108.74, 0.31, 29.38, 56.67, 8.77),
    (-1.93, 108.74, 0.31, 1.46, 41.28, 85.71),
    (43.11, 100.11, 0.57, -23.43, 59.24, 153.45),
)
#: Via times of Trajectory 1 as fractions of the duration.
TRAJECTORY_1_VIA = (0.35, 0.65)
#: Trajectory 2's via point: the Cartesian midpoint (digest reconstruction; q6 ~ 30 deg).
TRAJECTORY_2_VIA_DEG = (-32.231, 111.507, 0.27276, 22.286, 44.683, 30.0)


def knots_in_si(knots_deg):
    """
    Convert seed 000's joint knots to rad (joint 3 stays in m).

    Parameters
    ----------
    knots_deg : sequence of sequence of float
        Knots in degrees, joint 3 in metres.

    Returns
    -------
    list of list of float
        Knots in rad (m for joint 3).

    """
    return [[v if j == 2 else v * _DEG for j, v in enumerate(k)] for k in knots_deg]
