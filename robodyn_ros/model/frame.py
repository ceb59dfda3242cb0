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


"""A named frame rigidly attached to a body of a :class:`RobotModel`."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Frame:
    """
    A named frame rigidly attached to a body (or to the root link).

    Attributes
    ----------
    name : str
        Frame name (link names of URDF links, merged or not, are frames).
    body : int
        Index of the body it is attached to; -1 for the root link.
    rotation : numpy.ndarray
        Orientation in the body frame, (3, 3).
    translation : numpy.ndarray
        Origin in the body frame, (3,) [m].

    """

    name: str
    body: int
    rotation: np.ndarray
    translation: np.ndarray

    def __post_init__(self):
        for name, shape in (('rotation', (3, 3)), ('translation', (3,))):
            arr = np.array(getattr(self, name), dtype=float).reshape(shape)
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
