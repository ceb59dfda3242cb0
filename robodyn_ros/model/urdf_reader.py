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
Read a URDF (or xacro) description into a :class:`RobotModel`.

Fixed joints are merged into their parent link (their links stay available as
named frames); mimic joints are reported in ``model.notes`` and treated as
independent. A floating joint at the root (a floating-base description) is
loaded as fixed, with a note, so the base is fixed as in Pinocchio's
``buildModelFromUrdf`` without a root joint; floating joints elsewhere and
planar joints are rejected. Unknown tags in dynamics elements are errors,
malformed elements that do not affect dynamics are ignored with a warning
(:mod:`.urdf_elements`); bodies that break a rule of physical consistency
load with a warning unless ``strict`` (:func:`.checks.check_model`).
"""

import math
import os
import xml.etree.ElementTree as ElementTree

import numpy as np

from .checks import warning_text
from .frame import Frame
from .inertial import check_inertial, Inertial, missing_inertial
from .joint import Actuator, Friction, Joint, JointLimits, Mimic
from .robot_model import RobotModel
from .transforms import rpy_to_matrix, snap
from .urdf_elements import parse_lenient
from .urdf_writer import URDF_INFINITY
from ..errors import (DescriptionParseError, ModelError, NonFiniteValueError, TopologyError,
                      UnsupportedJointError)


def load_description_text(path_or_xml, xacro_args=None):
    """
    Return URDF text from a file path, a xacro file or XML text.

    Parameters
    ----------
    path_or_xml : str or os.PathLike
        ``.urdf`` path, ``.xacro`` path or the XML itself.
    xacro_args : dict, optional
        Arguments for xacro.

    Returns
    -------
    tuple of (str, str)
        The URDF text and a label of its source (path or ``'<string>'``).

    Raises
    ------
    DescriptionParseError
        If the file cannot be read or xacro fails.

    """
    if isinstance(path_or_xml, str) and path_or_xml.lstrip().startswith('<'):
        return path_or_xml, '<string>'
    path = os.fspath(path_or_xml)
    if not os.path.isfile(path):
        raise DescriptionParseError('file not found', path)
    if path.endswith('.xacro'):
        try:
            import xacro
            doc = xacro.process_file(path, mappings={k: str(v) for k, v in
                                                     (xacro_args or {}).items()})
            return doc.toxml(), path
        except Exception as exc:  # xacro raises many types; report them all the same way
            raise DescriptionParseError(f'xacro failed: {exc}', path) from exc
    try:
        with open(path, 'r', encoding='utf-8') as fh:
            return fh.read(), path
    except (OSError, UnicodeDecodeError) as exc:
        raise DescriptionParseError(f'cannot read file: {exc}', path) from exc


def read_urdf(path_or_xml, xacro_args=None, strict=False):
    """
    Parse a URDF into a :class:`RobotModel`.

    Parameters
    ----------
    path_or_xml : str or os.PathLike
        ``.urdf`` path, ``.xacro`` path or the XML itself.
    xacro_args : dict, optional
        Arguments for xacro.
    strict : bool
        Refuse what otherwise loads with a warning: bodies that break a rule
        of physical consistency, malformed elements that do not affect
        dynamics, a missing robot name, extension tags in dynamics elements.

    Returns
    -------
    RobotModel
        The model, with gravity (0, 0, -9.81) m/s^2; its ``warnings`` list
        what it was accepted with.

    Raises
    ------
    ModelError
        With the file, link or joint, field and value of the problem.

    """
    text, source = load_description_text(path_or_xml, xacro_args)
    found = []

    def report(error):
        if strict:
            raise error
        found.append(error)

    robot, notes, _ = parse_lenient(text, source, report)
    return _build(robot, text, source, notes, strict, [warning_text(e) for e in found])


def _vec(values, n, source, element, field):
    arr = np.array([0.0] * n if values is None else values, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise NonFiniteValueError('value must be finite', source, element, field, arr.tolist())
    return arr


def _pose(origin, source, element):
    if origin is None:
        return np.eye(3), np.zeros(3)
    xyz = _vec(origin.xyz, 3, source, element, 'origin.xyz')
    rpy = _vec(origin.rpy, 3, source, element, 'origin.rpy')
    return rpy_to_matrix(rpy), snap(xyz)


def _link_inertial(link, source):
    element = f'link {link.name!r}'
    if link.inertial is None:
        return None
    inr = link.inertial
    mass = inr.mass if inr.mass is not None else 0.0
    if inr.inertia is None:
        tensor = np.zeros((3, 3))
    else:
        t = inr.inertia
        tensor = np.array([[t.ixx, t.ixy, t.ixz], [t.ixy, t.iyy, t.iyz], [t.ixz, t.iyz, t.izz]],
                          dtype=float)
    rot, trans = _pose(inr.origin, source, element)
    body = Inertial(mass, np.zeros(3), tensor)
    check_inertial(body, element, source, strict=False)  # NaN and asymmetry only
    return body.transformed(rot, trans)


def _transmissions(text):
    """Gear ratios by joint name from ``<transmission>`` elements."""
    ratios = {}
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return ratios
    for tr in root.iter('transmission'):
        reductions = [el.text for el in tr.iter('mechanicalReduction') if el.text]
        joints = [el.get('name') for el in tr.findall('joint') if el.get('name')]
        if len(joints) == 1 and reductions:
            try:
                ratios[joints[0]] = float(reductions[0])
            except ValueError:
                continue
    return ratios


def _unbounded(value):
    """Map the writer's stand-in for infinity (|value| >= 1e300) back to inf."""
    return math.copysign(math.inf, value) if abs(value) >= URDF_INFINITY else value


def _limits(joint, source, notes):
    element = f'joint {joint.name!r}'
    lim = joint.limit
    if lim is None:
        if joint.type in ('revolute', 'prismatic'):
            raise ModelError('revolute and prismatic joints need a <limit>', source, element,
                             'limit')
        return JointLimits()
    lower, upper = -math.inf, math.inf
    if joint.type != 'continuous':
        lower = _unbounded(float(lim.lower if lim.lower is not None else 0.0))
        upper = _unbounded(float(lim.upper if lim.upper is not None else 0.0))
    values = {}
    for name in ('effort', 'velocity'):
        value = getattr(lim, name)
        value = math.inf if value is None else _unbounded(float(value))
        if math.isnan(value):
            raise NonFiniteValueError('limit must not be NaN', source, element,
                                      f'limit.{name}', value)
        if value <= 0.0:
            notes.append(f'joint {joint.name!r}: limit {name}={value:g} taken as unlimited')
            value = math.inf
        values[name] = value
    for name, value in (('lower', lower), ('upper', upper)):
        if math.isnan(value):
            raise NonFiniteValueError('limit must not be NaN', source, element,
                                      f'limit.{name}', value)
    return JointLimits(lower=lower, upper=upper, velocity=values['velocity'],
                       effort=values['effort'])


def _build(robot, text, source, notes, strict, warnings):
    """Assemble the model: topology first, then every joint depth-first from the root."""
    links = {link.name: link for link in robot.links}
    joints_by_parent, root = _topology(robot, links, source)
    tree = _TreeBuilder(links, root, _transmissions(text), source, notes)
    for joint in _depth_first(joints_by_parent, root):
        tree.add(joint)
    return tree.model(robot.name, strict, warnings)


def _topology(robot, links, source):
    """Check that the joints form one tree; return its joints by parent link and its root."""
    joints_by_parent = {}
    child_of = {}
    for joint in robot.joints:
        element = f'joint {joint.name!r}'
        for role, name in (('parent', joint.parent), ('child', joint.child)):
            if name not in links:
                raise TopologyError(f'{role} link does not exist', source, element, role, name)
        if joint.child in child_of:
            raise TopologyError('link has more than one parent joint', source,
                                f'link {joint.child!r}', 'parent',
                                [child_of[joint.child], joint.name])
        child_of[joint.child] = joint.name
        joints_by_parent.setdefault(joint.parent, []).append(joint)
    roots = [name for name in links if name not in child_of]
    if len(roots) != 1:
        if not roots:
            raise TopologyError('no root link (the joints form a loop)', source)
        raise TopologyError(f'several root links: {", ".join(roots)}', source)
    return joints_by_parent, roots[0]


def _depth_first(joints_by_parent, root):
    """Yield the joints depth-first, siblings in file order, so each subtree is contiguous."""
    stack = list(reversed(joints_by_parent.get(root, [])))
    while stack:
        joint = stack.pop()
        stack.extend(reversed(joints_by_parent.get(joint.child, [])))
        yield joint


class _TreeBuilder:
    """
    The model under construction; :meth:`add` takes the joints parents first.

    Each URDF element kind has its handler: links (:func:`_link_inertial`),
    fixed joints (:meth:`_merge_fixed`), movable joints (:meth:`_add_movable`
    with :func:`_axis`, :func:`_friction`, :func:`_mimic`, :func:`_limits`)
    and transmissions (:func:`_transmissions`, read beforehand).
    """

    #: Joint types and the method that handles each.
    HANDLERS = {'fixed': '_merge_fixed', 'revolute': '_add_movable',
                'continuous': '_add_movable', 'prismatic': '_add_movable',
                'floating': '_fix_floating'}

    def __init__(self, links, root, ratios, source, notes):
        self.links = links
        self.root = root
        self.ratios = ratios
        self.source = source
        self.notes = notes
        self.joints, self.bodies, self.frames = [], [], []
        self.root_body = _link_inertial(links[root], source) or Inertial.zero()
        # Each URDF link: (body index, rotation, translation) of its frame in that body.
        self.attach = {root: (-1, np.eye(3), np.zeros(3))}

    def add(self, joint):
        """Place a joint's frame in its parent body and hand it to the handler of its type."""
        body, r_pl, p_pl = self.attach[joint.parent]
        element = f'joint {joint.name!r}'
        r_o, p_o = _pose(joint.origin, self.source, element)
        r_j = snap(r_pl @ r_o)
        p_j = snap(r_pl @ p_o + p_pl)
        child_inertial = _link_inertial(self.links[joint.child], self.source)
        handler = self.HANDLERS.get(joint.type)
        if handler is None:
            raise UnsupportedJointError(
                'unsupported joint type (supported: revolute, continuous, prismatic, '
                'fixed; floating at the root)', self.source, element, 'type', joint.type)
        getattr(self, handler)(joint, body, r_j, p_j, child_inertial)

    def _merge_fixed(self, joint, body, r_j, p_j, child_inertial):
        """Merge the child link into the parent body; it stays available as a frame."""
        self.attach[joint.child] = (body, r_j, p_j)
        self.frames.append(Frame(joint.child, body, r_j, p_j))
        if child_inertial is None:
            return
        merged = child_inertial.transformed(r_j, p_j)
        if body < 0:
            self.root_body = self.root_body.combined(merged)
        else:
            current = self.bodies[body]
            self.bodies[body] = merged if current is None else current.combined(merged)

    def _fix_floating(self, joint, body, r_j, p_j, child_inertial):
        """Load a floating joint of the fixed base as fixed (a floating-base description)."""
        if body >= 0:
            raise UnsupportedJointError(
                'floating joint inside the tree (a floating joint is loaded, as fixed, only '
                'at the root)', self.source, f'joint {joint.name!r}', 'type', joint.type)
        self.notes.append(f'joint {joint.name!r} is floating: loaded as fixed, so link '
                          f'{joint.child!r} is part of the fixed base (as Pinocchio loads a '
                          'description without a root joint)')
        self._merge_fixed(joint, body, r_j, p_j, child_inertial)

    def _add_movable(self, joint, body, r_j, p_j, child_inertial):
        """Add a revolute, continuous or prismatic joint and its child body."""
        element = f'joint {joint.name!r}'
        axis = _axis(joint, self.source, element)
        friction = _friction(joint, self.source, element)
        mimic = _mimic(joint, self.notes)
        self.joints.append(Joint(
            name=joint.name, kind=joint.type, parent=body, link=joint.child,
            rotation=r_j, translation=p_j, axis=axis,
            limits=_limits(joint, self.source, self.notes),
            actuator=Actuator(gear_ratio=self.ratios.get(joint.name, 1.0)),
            friction=friction, mimic=mimic))
        self.bodies.append(child_inertial)
        self.attach[joint.child] = (len(self.joints) - 1, np.eye(3), np.zeros(3))

    def model(self, name, strict, warnings):
        """Return the finished RobotModel; links without inertial get the missing marker."""
        missing = missing_inertial()
        inertials = [missing if b is None else b for b in self.bodies]
        return RobotModel(name, self.root, self.joints, inertials, frames=self.frames,
                          root_inertial=self.root_body, source=self.source, notes=self.notes,
                          strict=strict, warnings=warnings)


def _axis(joint, source, element):
    """Return the unit joint axis (URDF default: x)."""
    axis = _vec(joint.axis if joint.axis is not None else [1.0, 0.0, 0.0], 3, source,
                element, 'axis')
    norm = np.linalg.norm(axis)
    if norm < 1e-12:
        raise ModelError('axis must not be zero', source, element, 'axis', axis.tolist())
    return snap(axis / norm)


def _friction(joint, source, element):
    """Return the symmetric Coulomb and viscous friction of ``<dynamics>``."""
    if joint.dynamics is None:
        return Friction()
    damping = float(joint.dynamics.damping or 0.0)
    coulomb = float(joint.dynamics.friction or 0.0)
    for name, value in (('dynamics.damping', damping), ('dynamics.friction', coulomb)):
        if not math.isfinite(value) or value < 0.0:
            raise ModelError('must be finite and >= 0', source, element, name, value)
    return Friction(coulomb_pos=coulomb, coulomb_neg=coulomb, viscous_pos=damping,
                    viscous_neg=damping)


def _mimic(joint, notes):
    """Read ``<mimic>`` into the notes; the joint itself stays independent."""
    if joint.mimic is None:
        return None
    m = joint.mimic
    mimic = Mimic(m.joint, 1.0 if m.multiplier is None else float(m.multiplier),
                  0.0 if m.offset is None else float(m.offset))
    notes.append(f'joint {joint.name!r} mimics {mimic.joint!r} '
                 f'(x{mimic.multiplier:g} + {mimic.offset:g}); treated as independent')
    return mimic
