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
The robot model: a kinematic tree with inertial, actuator and friction data.

A :class:`RobotModel` is immutable. It is built by one of the loaders
(:meth:`RobotModel.from_urdf`, :meth:`RobotModel.from_dh`) or from the
library (:func:`robodyn_ros.model.library.load`), and every other part of
the package (dynamics, planning, control, hardware) reads from it.
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import kinematics
from .checks import check_joint_params
from .inertial import check_inertial, Inertial
from .joint import Joint, JOINT_KINDS
from .transforms import is_rotation
from ..errors import (InputError, MissingInertialError, ModelError, NonFiniteValueError,
                      NonPositiveMassError, TopologyError, UnknownNameError,
                      UnsupportedJointError)

#: Standard gravity as a base-frame vector, z up [m/s^2].
DEFAULT_GRAVITY = (0.0, 0.0, -9.81)


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


class RobotModel:
    """
    Kinematic tree of revolute, continuous and prismatic joints with dynamics data.

    Body ``i`` is the link moved by joint ``i``; joints are ordered so that
    a parent body always comes before its children. The configuration is
    one coordinate per joint (an angle for revolute and continuous joints,
    a length for prismatic ones).

    Parameters
    ----------
    name : str
        Robot name.
    root_link : str
        Name of the fixed base link.
    joints : sequence of Joint
        Movable joints in tree order.
    inertials : sequence of Inertial
        Mass properties of each body, same order as ``joints``.
    frames : sequence of Frame, optional
        Extra named frames (merged fixed links, tool frames, DH frames).
        Body frames (one per joint, named after the link) and the root frame
        are added automatically.
    gravity : array_like, optional
        Gravity vector in the root frame [m/s^2].
    root_inertial : Inertial, optional
        Mass properties of the fixed base (informational).
    source : str, optional
        Where the description came from (file or library entry).
    notes : sequence of str, optional
        Remarks collected while loading (mimic joints, ignored tags, ...).
    dh : DHTable, optional
        The Denavit-Hartenberg table the model was built from (informational).

    Raises
    ------
    ModelError
        When the data are inconsistent (see :meth:`validate`).

    """

    def __init__(self, name, root_link, joints, inertials, frames=(), gravity=DEFAULT_GRAVITY,
                 root_inertial=None, source=None, notes=(), dh=None):
        self._name = str(name)
        self._root_link = str(root_link)
        self._joints = tuple(joints)
        self._inertials = tuple(inertials)
        self._gravity = np.array(gravity, dtype=float).reshape(3)
        self._gravity.setflags(write=False)
        self._root_inertial = root_inertial if root_inertial is not None else Inertial.zero()
        self._source = source
        self._notes = tuple(notes)
        self._dh = dh
        self._derived = {}
        if len(self._inertials) != len(self._joints):
            raise ModelError(f'{len(self._joints)} joints but {len(self._inertials)} inertials',
                             source)
        all_frames = [Frame(self._root_link, -1, np.eye(3), np.zeros(3))]
        all_frames += [Frame(j.link, i, np.eye(3), np.zeros(3))
                       for i, j in enumerate(self._joints)]
        all_frames += list(frames)
        self._frames = {}
        for f in all_frames:
            if f.name in self._frames:
                raise ModelError('duplicate frame or link name', source, f'frame {f.name!r}')
            self._frames[f.name] = f
        self._joint_index = {}
        for i, j in enumerate(self._joints):
            if j.name in self._joint_index:
                raise ModelError('duplicate joint name', source, f'joint {j.name!r}')
            self._joint_index[j.name] = i
        self.validate()

    # ------------------------------------------------------------------ basic data
    @property
    def name(self):
        """Robot name, a str."""
        return self._name

    @property
    def root_link(self):
        """Name of the fixed base link (str)."""
        return self._root_link

    @property
    def joints(self):
        """Movable joints in tree order (tuple of Joint)."""
        return self._joints

    @property
    def inertials(self):
        """Mass properties per body, in joint order (tuple of Inertial)."""
        return self._inertials

    @property
    def frames(self):
        """Named frames by name (dict of str to Frame), root and body frames first."""
        return dict(self._frames)

    @property
    def gravity(self):
        """Gravity vector in the root frame, (3,) [m/s^2]."""
        return self._gravity

    @property
    def root_inertial(self):
        """Mass properties of the fixed base (Inertial, informational)."""
        return self._root_inertial

    @property
    def source(self):
        """Where the description came from (str or None)."""
        return self._source

    @property
    def notes(self):
        """Remarks collected while loading (tuple of str)."""
        return self._notes

    @property
    def dh(self):
        """DH table the model was built from, or None (DHTable)."""
        return self._dh

    @property
    def n(self):
        """Count of joints (degrees of freedom), an int."""
        return len(self._joints)

    @property
    def joint_names(self):
        """Joint names in order (list of str)."""
        return [j.name for j in self._joints]

    @property
    def link_names(self):
        """Body (child link) names in joint order (list of str)."""
        return [j.link for j in self._joints]

    @property
    def frame_names(self):
        """All frame names (list of str)."""
        return list(self._frames)

    @property
    def end_effector(self):
        """
        Name the default end-effector frame (str).

        The last named frame fixed to the last body (a tool frame such as
        ``tool0`` or a DH end frame), otherwise the last body's own frame.
        """
        last = self.n - 1
        fixed = [f.name for f in self._frames.values()
                 if f.body == last and f.name != self._joints[last].link]
        return fixed[-1] if fixed else self._joints[last].link

    @property
    def mimic_joints(self):
        """Joints with a URDF mimic relation, by name (dict of str to Mimic)."""
        return {j.name: j.mimic for j in self._joints if j.mimic is not None}

    def joint(self, name):
        """
        Look up a joint by name.

        Parameters
        ----------
        name : str
            Joint name.

        Returns
        -------
        Joint
            The joint.

        Raises
        ------
        UnknownNameError
            If the model has no such joint.

        """
        return self._joints[self.joint_index(name)]

    def joint_index(self, name):
        """
        Index of a joint in the configuration vector.

        Parameters
        ----------
        name : str
            Joint name.

        Returns
        -------
        int
            Index.

        Raises
        ------
        UnknownNameError
            If the model has no such joint.

        """
        try:
            return self._joint_index[name]
        except KeyError:
            raise UnknownNameError(f'no such joint (joints: {", ".join(self.joint_names)})',
                                   self._source, f'joint {name!r}') from None

    def frame(self, name):
        """
        Look up a frame by name.

        Parameters
        ----------
        name : str
            Frame or link name.

        Returns
        -------
        Frame
            The frame.

        Raises
        ------
        UnknownNameError
            If the model has no such frame.

        """
        try:
            return self._frames[name]
        except KeyError:
            raise UnknownNameError(f'no such frame (frames: {", ".join(self._frames)})',
                                   self._source, f'frame {name!r}') from None

    def derived(self, key, factory):
        """
        Return a cached quantity derived from this (immutable) model.

        Parameters
        ----------
        key : hashable
            Cache key, e.g. ``'dynamics_tables'``.
        factory : callable
            Called as ``factory(model)`` the first time.

        Returns
        -------
        object
            The cached value.

        """
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = factory(self)
            return value

    # ------------------------------------------------------------------ arrays
    @cached_property
    def parents(self):
        """Parent body index per joint, -1 for the root, (n,) int."""
        return _readonly(np.array([j.parent for j in self._joints], dtype=int))

    @cached_property
    def is_prismatic(self):
        """Prismatic flag per joint, (n,) bool."""
        return _readonly(np.array([j.is_prismatic for j in self._joints], dtype=bool))

    @cached_property
    def lower_limits(self):
        """Lower position limits, (n,) [rad or m]; -inf where unbounded."""
        return _readonly(np.array([j.limits.lower for j in self._joints]))

    @cached_property
    def upper_limits(self):
        """Upper position limits, (n,) [rad or m]; inf where unbounded."""
        return _readonly(np.array([j.limits.upper for j in self._joints]))

    @cached_property
    def velocity_limits(self):
        """Velocity limits, (n,) [rad/s or m/s]."""
        return _readonly(np.array([j.limits.velocity for j in self._joints]))

    @cached_property
    def acceleration_limits(self):
        """Acceleration limits, (n,) [rad/s^2 or m/s^2]."""
        return _readonly(np.array([j.limits.acceleration for j in self._joints]))

    @cached_property
    def effort_limits(self):
        """Effort limits, (n,) [N m or N]."""
        return _readonly(np.array([j.limits.effort for j in self._joints]))

    @cached_property
    def armature(self):
        """Link-side rotor inertia per joint, (n,) [kg m^2 or kg]."""
        return _readonly(np.array([j.actuator.armature for j in self._joints]))

    @cached_property
    def children(self):
        """Child joint indices per body (tuple of tuples of int)."""
        kids = [[] for _ in self._joints]
        for i, j in enumerate(self._joints):
            if j.parent >= 0:
                kids[j.parent].append(i)
        return tuple(tuple(k) for k in kids)

    @cached_property
    def is_chain(self):
        """Whether the tree is a single serial chain (bool)."""
        return all(j.parent == i - 1 for i, j in enumerate(self._joints))

    # ------------------------------------------------------------------ checks
    def validate(self):
        """
        Check the whole model; called by the constructor.

        Raises
        ------
        ModelError
            With the joint or link, field and value of the first problem found.

        """
        src = self._source
        if not np.all(np.isfinite(self._gravity)):
            raise NonFiniteValueError('gravity must be finite', src, None, 'gravity',
                                      self._gravity.tolist())
        for i, (j, body) in enumerate(zip(self._joints, self._inertials)):
            where = f'joint {j.name!r}'
            if j.kind not in JOINT_KINDS:
                raise UnsupportedJointError(
                    f'unsupported joint type (supported: {", ".join(JOINT_KINDS)})',
                    src, where, 'type', j.kind)
            if not -1 <= j.parent < i:
                raise TopologyError('parent must come before the joint in tree order', src,
                                    where, 'parent', j.parent)
            for name in ('rotation', 'translation', 'axis'):
                if not np.all(np.isfinite(getattr(j, name))):
                    raise NonFiniteValueError(f'{name} must be finite', src, where, name,
                                              getattr(j, name).tolist())
            if not is_rotation(j.rotation, tol=1e-6):
                raise ModelError('placement is not a proper rotation', src, where, 'rotation',
                                 j.rotation.tolist())
            if abs(np.linalg.norm(j.axis) - 1.0) > 1e-9:
                raise ModelError('axis must be a unit vector', src, where, 'axis',
                                 j.axis.tolist())
            check_joint_params(j, src)
            link = f'link {j.link!r}'
            check_inertial(body, link, src)
            if body.mass <= 0.0:
                if body.is_zero() and body is _MISSING:
                    raise MissingInertialError('moving link has no inertial', src, link)
                raise NonPositiveMassError('a moving link must have a positive mass', src,
                                           link, 'mass', body.mass)
        for f in self._frames.values():
            if not -1 <= f.body < self.n:
                raise TopologyError('frame attached to a body that does not exist', src,
                                    f'frame {f.name!r}', 'body', f.body)

    # ------------------------------------------------------------------ kinematics
    def check_configuration(self, q, argument='q'):
        """
        Validate a configuration vector.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].
        argument : str
            Name used in the error message.

        Returns
        -------
        numpy.ndarray
            ``q`` as a float array of shape (n,).

        Raises
        ------
        InputError
            Wrong shape or non-finite entries.

        """
        return check_vector(q, self.n, argument)

    def forward_kinematics(self, q):
        """
        Poses of every body frame in the root frame.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].

        Returns
        -------
        tuple of (numpy.ndarray, numpy.ndarray)
            Rotations (n, 3, 3) and origins (n, 3) [m].

        """
        return kinematics.body_poses(self, self.check_configuration(q))

    def frame_pose(self, q, frame):
        """
        Pose of a named frame in the root frame.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].
        frame : str
            Frame or link name.

        Returns
        -------
        numpy.ndarray
            4x4 homogeneous transform (root from frame).

        """
        return kinematics.frame_pose(self, self.check_configuration(q), self.frame(frame))

    def jacobian(self, q, frame, reference='world_aligned'):
        """
        Geometric Jacobian of a named frame.

        Parameters
        ----------
        q : array_like
            Joint coordinates, shape (n,) [rad or m].
        frame : str
            Frame or link name.
        reference : {'world_aligned', 'local'}
            ``'world_aligned'``: velocity of the frame origin and angular
            velocity in root-frame axes; ``'local'``: the same in the frame's
            own axes.

        Returns
        -------
        numpy.ndarray
            Shape (6, n): rows 0-2 linear [m/s per unit qd], rows 3-5
            angular [rad/s per unit qd].

        """
        if reference not in ('world_aligned', 'local'):
            raise InputError('reference', f"must be 'world_aligned' or 'local', got {reference!r}")
        return kinematics.frame_jacobian(self, self.check_configuration(q), self.frame(frame),
                                         reference)

    def random_configuration(self, rng=None):
        """
        Draw a configuration uniformly within the joint limits.

        Parameters
        ----------
        rng : numpy.random.Generator, optional
            Random generator.

        Returns
        -------
        numpy.ndarray
            Shape (n,); unbounded joints are drawn in [-pi, pi] [rad or m].

        """
        rng = np.random.default_rng() if rng is None else rng
        lo = np.where(np.isfinite(self.lower_limits), self.lower_limits, -np.pi)
        hi = np.where(np.isfinite(self.upper_limits), self.upper_limits, np.pi)
        return rng.uniform(lo, hi)

    # ------------------------------------------------------------------ derived models
    def replace_joints(self, joints):
        """
        Return a copy with new joint records (same tree).

        Parameters
        ----------
        joints : sequence of Joint
            Replacement records, same names and order.

        Returns
        -------
        RobotModel
            The new model.

        """
        return self._copy(joints=tuple(joints))

    def replace_inertials(self, inertials):
        """
        Return a copy with new body mass properties.

        Parameters
        ----------
        inertials : sequence of Inertial
            One per body.

        Returns
        -------
        RobotModel
            The new model.

        """
        return self._copy(inertials=tuple(inertials))

    def with_payload(self, mass, com=(0.0, 0.0, 0.0), inertia=None, frame=None):
        """
        Return a copy carrying a rigid payload.

        Parameters
        ----------
        mass : float
            Payload mass [kg] (negative values remove mass, as long as each
            body keeps a positive mass).
        com : array_like
            Payload centre of mass in ``frame`` [m].
        inertia : array_like, optional
            Payload inertia about its centre of mass, ``frame`` axes
            [kg m^2]; a point mass if omitted.
        frame : str, optional
            Frame the payload is fixed to; default: the last body.

        Returns
        -------
        RobotModel
            The new model.

        """
        f = self.frame(frame) if frame is not None else self._frames[self._joints[-1].link]
        if f.body < 0:
            return self
        load = Inertial(mass, com, np.zeros((3, 3)) if inertia is None else inertia)
        load = load.transformed(f.rotation, f.translation)
        inertials = list(self._inertials)
        total = inertials[f.body].combined(load)
        if total.mass <= 0.0:
            raise NonPositiveMassError('removing the payload leaves no mass', self._source,
                                       f'link {self._joints[f.body].link!r}', 'mass',
                                       total.mass)
        inertials[f.body] = total
        return self.replace_inertials(inertials)

    def with_gravity(self, gravity):
        """
        Return a copy with another gravity vector.

        Parameters
        ----------
        gravity : array_like
            Gravity in the root frame [m/s^2].

        Returns
        -------
        RobotModel
            The new model.

        """
        return self._copy(gravity=np.array(gravity, dtype=float))

    def _copy(self, **changes):
        extra = [f for f in self._frames.values()
                 if f.body >= 0 and f.name != self._joints[f.body].link]
        extra += [f for f in self._frames.values() if f.body < 0 and f.name != self._root_link]
        kwargs = {'name': self._name, 'root_link': self._root_link, 'joints': self._joints,
                  'inertials': self._inertials, 'frames': extra, 'gravity': self._gravity,
                  'root_inertial': self._root_inertial, 'source': self._source,
                  'notes': self._notes, 'dh': self._dh}
        kwargs.update(changes)
        return RobotModel(**kwargs)

    # ------------------------------------------------------------------ loaders / writers
    @classmethod
    def from_urdf(cls, path_or_xml, params=None, xacro_args=None):
        """
        Build a model from a URDF (or xacro) file or string.

        Parameters
        ----------
        path_or_xml : str or os.PathLike
            File path (``.urdf``, ``.xacro``) or the XML text itself.
        params : str, os.PathLike or dict, optional
            Actuator, friction and limit data merged by joint name
            (see ``config/robot_params.schema.yaml``).
        xacro_args : dict, optional
            xacro arguments (``name:=value``) for ``.xacro`` files.

        Returns
        -------
        RobotModel
            The model.

        Raises
        ------
        ModelError
            If the description is unreadable or invalid.

        """
        from .urdf_reader import read_urdf
        model = read_urdf(path_or_xml, xacro_args=xacro_args)
        if params is not None:
            from .params import apply_params
            model = apply_params(model, params)
        return model

    @classmethod
    def from_dh(cls, links, convention='standard', gravity=DEFAULT_GRAVITY, name='dh_robot',
                base_link='base_link', source=None):
        """
        Build a serial model from a Denavit-Hartenberg table.

        Parameters
        ----------
        links : sequence of mapping
            One mapping per link; see :func:`robodyn_ros.model.dh.model_from_dh`.
        convention : {'standard', 'modified'}
            Standard (distal) DH or Craig's modified (proximal) DH.
        gravity : array_like
            Gravity in the base frame [m/s^2].
        name : str
            Robot name.
        base_link : str
            Name of the base link.
        source : str, optional
            Origin of the table, named in error messages.

        Returns
        -------
        RobotModel
            The model.

        """
        from .dh import model_from_dh
        return model_from_dh(links, convention=convention, gravity=gravity, name=name,
                             base_link=base_link, source=source)

    def to_urdf(self, path=None):
        """
        Write the model as URDF.

        Parameters
        ----------
        path : str or os.PathLike, optional
            File to write; the text is returned either way.

        Returns
        -------
        str
            The URDF text (loads in urdf_parser_py and Pinocchio).

        """
        from .urdf_writer import model_to_urdf
        text = model_to_urdf(self)
        if path is not None:
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(text)
        return text

    def to_params(self):
        """
        Actuator, friction and limit data in the parameter-file layout.

        Returns
        -------
        dict
            Mapping that :meth:`from_urdf` accepts as ``params``.

        """
        from .params import model_params
        return model_params(self)

    def __repr__(self):
        kinds = ''.join('P' if j.is_prismatic else 'R' for j in self._joints)
        return f'RobotModel(name={self._name!r}, n={self.n}, joints={kinds!r})'


def check_vector(value, n, argument):
    """
    Validate a vector argument of length ``n``.

    Parameters
    ----------
    value : array_like
        The vector.
    n : int
        Required length.
    argument : str
        Name used in error messages.

    Returns
    -------
    numpy.ndarray
        Float array of shape (n,).

    Raises
    ------
    InputError
        Wrong shape or non-finite entries.

    """
    arr = np.asarray(value, dtype=float)
    if arr.shape != (n,):
        raise InputError(argument, f'expected shape ({n},), got {arr.shape}')
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InputError(argument, f'entry {bad} is {arr[bad]} (must be finite)')
    return arr


def _readonly(arr):
    arr.setflags(write=False)
    return arr


#: Marker for a body whose link had no ``<inertial>`` at all (set by loaders).
_MISSING = Inertial.zero()


def missing_inertial():
    """
    Return the marker for a link without inertial data.

    Returns
    -------
    Inertial
        A zero body that the validation reports as "missing inertial".

    """
    return _MISSING


__all__ = ['DEFAULT_GRAVITY', 'Frame', 'Joint', 'RobotModel', 'check_vector',
           'missing_inertial']
