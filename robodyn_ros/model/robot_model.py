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
The robot model record: a kinematic tree with inertial, actuator and friction data.

A :class:`RobotModel` is immutable. It is built by one of the constructors
(:mod:`robodyn_ros.model.constructors`, :func:`robodyn_ros.model.dh.model_from_dh`,
also reachable as :meth:`RobotModel.from_urdf` and :meth:`RobotModel.from_dh`) or
from the library (:func:`robodyn_ros.model.library.load`), and every other part of
the package (dynamics, planning, control, hardware) reads from it. Its
validation is :func:`robodyn_ros.model.checks.check_model`.
"""

import numpy as np

from .checks import check_model
from .frame import Frame
from .inertial import Inertial
from .joint_space import JointSpaceMixin
from .kinematics import KinematicsMixin
from .variants import VariantsMixin
from ..errors import ModelError, UnknownNameError

#: Standard gravity as a base-frame vector, z up [m/s^2].
DEFAULT_GRAVITY = (0.0, 0.0, -9.81)


class RobotModel(JointSpaceMixin, KinematicsMixin, VariantsMixin):
    """
    Kinematic tree of revolute, continuous and prismatic joints with dynamics data.

    Body ``i`` is the link moved by joint ``i``; joints are ordered so that
    a parent body always comes before its children. The configuration is
    one coordinate per joint (an angle for revolute and continuous joints,
    a length for prismatic ones).

    This module holds the record (its data, names, lookups, the derived
    cache and :meth:`replace`); its methods by concern come from
    :class:`~.joint_space.JointSpaceMixin` (per-joint arrays, configurations),
    :class:`~.kinematics.KinematicsMixin` (poses, Jacobians) and
    :class:`~.variants.VariantsMixin` (copies with a payload, other joints,
    bodies or gravity).

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
    strict : bool, optional
        Refuse bodies that break a rule of physical consistency (see
        :meth:`validate`); by default they are accepted and listed in
        :attr:`warnings`, as Pinocchio accepts them.
    warnings : sequence of str, optional
        Warnings of the loader (ignored elements, ...), kept in
        :attr:`warnings` ahead of the validation's own.

    Raises
    ------
    ModelError
        When the data are inconsistent (see :meth:`validate`).

    """

    def __init__(self, name, root_link, joints, inertials, frames=(), gravity=DEFAULT_GRAVITY,
                 root_inertial=None, source=None, notes=(), dh=None, strict=False,
                 warnings=()):
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
        self._strict = bool(strict)
        self._load_warnings = tuple(warnings)
        self._warnings = ()
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
        found = self.validate()
        self._warnings = tuple(dict.fromkeys(self._load_warnings + tuple(found)))

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
    def warnings(self):
        """
        Problems the model was accepted with (tuple of str).

        Broken rules of physical consistency, each naming the link and the
        rule, and the loader's warnings (ignored elements, a missing robot
        name, ...); empty for a strict model.
        """
        return self._warnings

    @property
    def strict(self):
        """Whether the model refuses physically inconsistent bodies (bool)."""
        return self._strict

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

    # ------------------------------------------------------------------ checks
    def validate(self, strict=None):
        """
        Check the whole model (:func:`~robodyn_ros.model.checks.check_model`).

        Parameters
        ----------
        strict : bool, optional
            Raise on broken rules of physical consistency too (default: the
            model's own :attr:`strict`).

        Returns
        -------
        list of str
            Warnings, one per broken rule (empty when strict).

        Raises
        ------
        ModelError
            With the joint or link, field and value of the first problem found.

        """
        return check_model(self, self._strict if strict is None else strict)

    # ------------------------------------------------------------------ copies
    def replace(self, **changes):
        """
        Return a validated copy with some constructor arguments changed.

        Parameters
        ----------
        **changes
            Any of the constructor's arguments (``joints``, ``inertials``,
            ``gravity``, ``notes``, ...); ``frames`` replaces the extra frames
            (the root and body frames are always added).

        Returns
        -------
        RobotModel
            The new model; the others are in :class:`~.variants.VariantsMixin`.

        """
        extra = [f for f in self._frames.values()
                 if f.body >= 0 and f.name != self._joints[f.body].link]
        extra += [f for f in self._frames.values() if f.body < 0 and f.name != self._root_link]
        kwargs = {'name': self._name, 'root_link': self._root_link, 'joints': self._joints,
                  'inertials': self._inertials, 'frames': extra, 'gravity': self._gravity,
                  'root_inertial': self._root_inertial, 'source': self._source,
                  'notes': self._notes, 'dh': self._dh, 'strict': self._strict,
                  'warnings': self._load_warnings}
        kwargs.update(changes)
        return RobotModel(**kwargs)

    # ------------------------------------------------------------------ constructors / writers
    @classmethod
    def from_urdf(cls, path_or_xml, params=None, xacro_args=None, strict=False):
        """
        Build a model from a URDF or xacro file or string (parameter file merged).

        See :func:`robodyn_ros.model.constructors.model_from_urdf` for the
        arguments; raises :class:`~robodyn_ros.errors.ModelError` if the
        description is unreadable or invalid (or, with ``strict``, breaks a
        rule of physical consistency), and issues a
        :class:`~robodyn_ros.errors.ModelWarning` per rule broken otherwise.
        """
        from .constructors import model_from_urdf
        return model_from_urdf(path_or_xml, params=params, xacro_args=xacro_args,
                               strict=strict)

    @classmethod
    def from_dh(cls, links, convention='standard', gravity=DEFAULT_GRAVITY, name='dh_robot',
                base_link='base_link', source=None, strict=False):
        """
        Build a serial model from a standard or modified Denavit-Hartenberg table.

        See :func:`robodyn_ros.model.dh.model_from_dh` for the arguments;
        issues a :class:`~robodyn_ros.errors.ModelWarning` per rule of
        physical consistency broken (``strict`` refuses them).
        """
        from .constructors import emit_warnings
        from .dh import model_from_dh
        return emit_warnings(model_from_dh(links, convention=convention, gravity=gravity,
                                           name=name, base_link=base_link, source=source,
                                           strict=strict))

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


__all__ = ['DEFAULT_GRAVITY', 'RobotModel']
