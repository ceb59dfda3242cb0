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
Regenerate the ros2_control, RViz and Gazebo assets of the library robots.

Writes, for every library robot NAME:

* ``urdf/NAME.description.xacro``: the macro ``NAME_description`` with the
  links, joints, inertials, limits and friction of ``urdf/NAME.urdf``
  (the same numbers: both come from ``RobotModel.to_urdf()``) plus visual
  and collision cylinders computed from the joint placements; with
  ``gazebo:=true`` the root link gets an inertial and bodies that are not
  physical get ``library.simulator_inertials`` (sdformat needs both);
* ``urdf/NAME.ros2_control.xacro``: the macro ``NAME_ros2_control`` (effort
  command interfaces limited to the model's effort limits and starting at
  0, position, velocity and effort state interfaces starting at the home
  configuration);
* ``urdf/NAME.urdf.xacro``: the robot, with the ``<ros2_control>`` variant
  chosen by the xacro argument ``ros2_control`` (none, mock, gazebo, topic);
* ``config/NAME_controllers.yaml``: joint_state_broadcaster and the effort
  forward command controller over the model's joints.

The shared macros in ``urdf/common/`` are written by hand. Run from anywhere:
``python3 scripts/generate_xacro_assets.py``; with ``--check`` nothing is
written and the exit status tells whether the shipped files are up to date.
"""

import argparse
from dataclasses import dataclass
import math
import os
import sys
import xml.etree.ElementTree as ElementTree

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
XACRO_NS = 'http://www.ros.org/wiki/xacro'

#: Density used to size the link cylinders from the link masses [kg/m^3].
#: Root link inertial of the Gazebo variant, mass [kg] and moments [kg m^2]: fixed to world,
#: it never acts, but sdformat drops a massless link under world (and the joint to it).
BASE_INERTIAL = (1.0, (0.001, 0.001, 0.001))

DENSITY = 2700.0
#: Link cylinder radius range [m].
RADIUS_RANGE = (0.02, 0.08)
#: Shortest bone drawn [m].
MIN_BONE = 1e-4


@dataclass(frozen=True)
class Cylinder:
    """
    One visual and collision cylinder of a link.

    Attributes
    ----------
    center : tuple of float
        Centre in the link frame [m].
    rpy : tuple of float
        Orientation of the cylinder's z axis (roll, pitch, yaw) [rad].
    radius, length : float
        Size [m].
    material : str
        Material name (``urdf/common/materials.xacro``).

    """

    center: tuple
    rpy: tuple
    radius: float
    length: float
    material: str


def _rotation_from_z(direction):
    """Rotation matrix that takes the z axis onto the unit vector ``direction``."""
    from robodyn_ros.model.transforms import axis_angle_matrix
    z = np.array([0.0, 0.0, 1.0])
    d = np.asarray(direction, dtype=float)
    d = d / np.linalg.norm(d)
    v = np.cross(z, d)
    s, c = np.linalg.norm(v), float(z @ d)
    if s < 1e-12:
        return np.eye(3) if c > 0.0 else np.diag([1.0, -1.0, -1.0])
    return axis_angle_matrix(v / s, math.atan2(s, c))


def _along(start, end, radius, material):
    """Cylinder from ``start`` to ``end`` (link frame) [m]."""
    from robodyn_ros.model.transforms import matrix_to_rpy
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    rot = _rotation_from_z(end - start)
    return Cylinder(tuple(0.5 * (start + end)), tuple(matrix_to_rpy(rot)), radius,
                    float(np.linalg.norm(end - start)), material)


def _points(model, body):
    """Points of a body (-1: the root link) its bones reach, in its frame [m]."""
    points = [np.asarray(j.translation) for j in model.joints if j.parent == body]
    own = model.root_link if body < 0 else model.joints[body].link
    points += [np.asarray(f.translation) for f in model.frames.values()
               if f.body == body and f.name != own]
    if body >= 0:
        com = np.asarray(model.inertials[body].com)
        if np.linalg.norm(com) > 1e-3:
            points.append(2.0 * com)  # a uniform bar has its centre of mass in the middle
    return [p for p in points if np.linalg.norm(p) > MIN_BONE]


def _radius(mass, points):
    """Bone radius of a solid bar of the link's mass and total bone length [m]."""
    length = max(0.1, sum(float(np.linalg.norm(p)) for p in points))
    radius = math.sqrt(max(mass, 0.0) / (DENSITY * math.pi * length))
    return min(max(radius, RADIUS_RANGE[0]), RADIUS_RANGE[1])


def link_geometry(model, masses=None):
    """
    Visual and collision cylinders of every link, from the joint placements.

    Each link gets a bone from its frame origin to every child joint, every
    frame attached to it and (for an offset centre of mass) twice its centre
    of mass; each joint gets a housing on its parent link, along the joint
    axis. Radii follow from the link masses (a solid aluminium bar).

    Parameters
    ----------
    model : RobotModel
        The robot.
    masses : dict, optional
        Link name -> mass [kg] to size a link by instead of the model's.

    Returns
    -------
    dict
        Link name -> list of :class:`Cylinder` (root link included).

    """
    radii = {}
    for i, body in enumerate(model.inertials):
        radii[i] = _radius((masses or {}).get(model.joints[i].link, body.mass), _points(model, i))
    roots = [i for i, j in enumerate(model.joints) if j.parent < 0]
    radii[-1] = min(max(1.3 * max(radii[i] for i in roots), 0.03), 0.1)
    shapes = {model.root_link: [Cylinder((0.0, 0.0, -0.01), (0.0, 0.0, 0.0),
                                         1.5 * radii[-1], 0.02, 'robodyn_base')]}
    for i, j in enumerate(model.joints):
        shapes[j.link] = []
    for body in [-1] + list(range(model.n)):
        link = model.root_link if body < 0 else model.joints[body].link
        material = ('robodyn_base' if body < 0
                    else ('robodyn_link_a' if body % 2 == 0 else 'robodyn_link_b'))
        for point in _points(model, body):
            shapes[link].append(_along(np.zeros(3), point, radii[body], material))
    for i, j in enumerate(model.joints):
        parent = model.root_link if j.parent < 0 else model.joints[j.parent].link
        axis = np.asarray(j.rotation) @ np.asarray(j.axis)
        radius = 1.15 * max(radii[i], radii[j.parent])
        half = (2.0 if j.is_prismatic else 1.0) * radius
        origin = np.asarray(j.translation)
        shapes[parent].append(_along(origin - half * axis, origin + half * axis, radius,
                                     'robodyn_joint'))
    return shapes


def _fmt(value):
    text = f'{float(value):.6g}'
    return '0' if text in ('0', '-0') else text


def _vec(values):
    return ' '.join(_fmt(v) for v in values)


def _generated(name):
    return (f'Generated by scripts/generate_xacro_assets.py from '
            f'robodyn_ros.model.library.{name}; do not edit.')


def description_xacro(name, model):
    """
    Text of ``urdf/NAME.description.xacro``.

    Parameters
    ----------
    name : str
        Library name.
    model : RobotModel
        The robot.

    Returns
    -------
    str
        The xacro file.

    """
    ElementTree.register_namespace('xacro', XACRO_NS)
    urdf = ElementTree.fromstring(model.to_urdf())
    root = ElementTree.Element('robot')
    root.append(ElementTree.Comment(
        f' {_generated(name)}\n     Links, joints, inertials, limits and friction as '
        f'urdf/{name}.urdf, plus visual and\n     collision cylinders along the joint '
        f'placements (lengths in m, angles in rad). '))
    for rel in ('common/materials.xacro', 'common/geometry.xacro'):
        ElementTree.SubElement(root, f'{{{XACRO_NS}}}include', filename=rel)
    macro = ElementTree.SubElement(root, f'{{{XACRO_NS}}}macro', name=f'{name}_description',
                                   params='gazebo:=false')
    from robodyn_ros.model import library
    simulator = library.simulator_inertials(name)
    shapes = link_geometry(model, {link: body[0] for link, body in simulator.items()})
    for element in urdf:
        if element.tag == 'link':
            link = element.get('name')
            if link == model.root_link:
                _gazebo_only(element, _inertial_element(*BASE_INERTIAL, (0.0, 0.0, 0.0)))
            elif link in simulator:
                _gazebo_only(element, _inertial_element(*simulator[link]),
                             element.find('inertial'))
            for shape in shapes.get(link, ()):
                ElementTree.SubElement(element, f'{{{XACRO_NS}}}robodyn_cylinder',
                                       xyz=_vec(shape.center), rpy=_vec(shape.rpy),
                                       radius=_fmt(shape.radius), length=_fmt(shape.length),
                                       material=shape.material)
        macro.append(element)
    ElementTree.indent(root, '  ')
    return '<?xml version="1.0"?>\n' + ElementTree.tostring(root, encoding='unicode') + '\n'


def _inertial_element(mass, moments, com):
    ixx, iyy, izz = (_fmt(v) for v in moments)
    return ElementTree.fromstring(
        f'<inertial><origin xyz="{_vec(com)}" rpy="0 0 0"/><mass value="{_fmt(mass)}"/><inertia '
        f'ixx="{ixx}" ixy="0" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/></inertial>')


def _gazebo_only(link, inertial, otherwise=None):
    """Insert an inertial used by the Gazebo variant only (``otherwise``, moved, elsewhere)."""
    if otherwise is not None:
        link.remove(otherwise)
    for index, (tag, child) in enumerate((('if', inertial), ('unless', otherwise))):
        if child is not None:
            link.insert(index, ElementTree.Element(f'{{{XACRO_NS}}}{tag}', value='${gazebo}'))
            link[index].append(child)


def ros2_control_xacro(name, model):
    """
    Text of ``urdf/NAME.ros2_control.xacro``.

    Parameters
    ----------
    name : str
        Library name.
    model : RobotModel
        The robot.

    Returns
    -------
    str
        The xacro file.

    """
    lines = ['<?xml version="1.0"?>',
             f'<!-- {_generated(name)}',
             '     The <ros2_control> tag: one effort command interface per joint, limited',
             "     to the model's effort limit [N m or N] and starting at 0 (without an",
             '     initial value it starts as NaN on Jazzy and later), and position,',
             '     velocity and effort state interfaces starting at the home configuration',
             '     [rad or m]. -->',
             '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">',
             '  <xacro:include filename="common/ros2_control.xacro"/>',
             f'  <xacro:macro name="{name}_ros2_control"',
             '               params="variant ros_distro joint_commands_topic '
             'joint_states_topic">',
             f'    <ros2_control name="{name}" type="system">',
             '      <xacro:robodyn_ros2_control_hardware variant="${variant}" '
             'ros_distro="${ros_distro}"',
             '          joint_commands_topic="${joint_commands_topic}" '
             'joint_states_topic="${joint_states_topic}"/>']
    for joint, home in zip(model.joints, model.home_configuration()):
        effort = joint.limits.effort
        lines.append(f'      <joint name="{joint.name}">')
        lines.append('        <command_interface name="effort">')
        if math.isfinite(effort):
            lines.append(f'          <param name="min">{_fmt(-effort)}</param>')
            lines.append(f'          <param name="max">{_fmt(effort)}</param>')
        lines.append('          <param name="initial_value">0.0</param>')
        lines.append('        </command_interface>')
        lines.append('        <state_interface name="position">')
        lines.append(f'          <param name="initial_value">{repr(float(home))}</param>')
        lines.append('        </state_interface>')
        for state in ('velocity', 'effort'):
            lines.append(f'        <state_interface name="{state}">')
            lines.append('          <param name="initial_value">0.0</param>')
            lines.append('        </state_interface>')
        lines.append('      </joint>')
    lines += ['    </ros2_control>', '  </xacro:macro>', '</robot>', '']
    return '\n'.join(lines)


def robot_xacro(name, model):
    """
    Text of ``urdf/NAME.urdf.xacro``.

    Parameters
    ----------
    name : str
        Library name.
    model : RobotModel
        The robot.

    Returns
    -------
    str
        The xacro file.

    """
    return f"""<?xml version="1.0"?>
<!-- {_generated(name)}
     Arguments (xacro {name}.urdf.xacro name:=value ...):
       ros2_control          none | mock | gazebo | topic (default none): the
                             <ros2_control> tag, see common/ros2_control.xacro
       ros_distro            humble selects the Humble plugin names (default:
                             $ROS_DISTRO, else jazzy)
       controllers_file      controllers YAML of the Gazebo plugin (default, empty:
                             $(find robodyn_ros)/config/{name}_controllers.yaml)
       namespace             ROS namespace of Gazebo's controller manager
       joint_commands_topic  topic variant: effort commands out (JointState)
       joint_states_topic    topic variant: joint states in (JointState) -->
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="{name}">
  <xacro:arg name="ros2_control" default="none"/>
  <xacro:arg name="ros_distro" default="$(optenv ROS_DISTRO jazzy)"/>
  <xacro:arg name="controllers_file" default=""/>
  <xacro:arg name="namespace" default=""/>
  <xacro:arg name="joint_commands_topic" default="hardware/joint_commands"/>
  <xacro:arg name="joint_states_topic" default="hardware/joint_states"/>

  <xacro:include filename="{name}.description.xacro"/>
  <xacro:include filename="{name}.ros2_control.xacro"/>

  <xacro:property name="ros2_control_variant" value="$(arg ros2_control)"/>
  <xacro:robodyn_check_ros2_control_variant variant="${{ros2_control_variant}}"/>

  <xacro:if value="${{ros2_control_variant == 'gazebo'}}">
    <xacro:robodyn_world_link root_link="{model.root_link}"/>
  </xacro:if>

  <xacro:{name}_description gazebo="${{ros2_control_variant == 'gazebo'}}"/>

  <xacro:unless value="${{ros2_control_variant == 'none'}}">
    <xacro:{name}_ros2_control variant="${{ros2_control_variant}}"
        ros_distro="$(arg ros_distro)"
        joint_commands_topic="$(arg joint_commands_topic)"
        joint_states_topic="$(arg joint_states_topic)"/>
  </xacro:unless>

  <xacro:if value="${{ros2_control_variant == 'gazebo'}}">
    <!-- $(find) only here: the other variants expand without a ROS install -->
    <xacro:property name="controllers_file" value="$(arg controllers_file)"/>
    <xacro:if value="${{controllers_file == ''}}">
      <xacro:robodyn_gazebo_ros2_control ros_distro="$(arg ros_distro)"
          controllers_file="$(find robodyn_ros)/config/{name}_controllers.yaml"
          namespace="$(arg namespace)"/>
    </xacro:if>
    <xacro:unless value="${{controllers_file == ''}}">
      <xacro:robodyn_gazebo_ros2_control ros_distro="$(arg ros_distro)"
          controllers_file="${{controllers_file}}" namespace="$(arg namespace)"/>
    </xacro:unless>
  </xacro:if>
</robot>
"""


def controllers_yaml(name, model):
    """
    Text of ``config/NAME_controllers.yaml``.

    Parameters
    ----------
    name : str
        Library name.
    model : RobotModel
        The robot.

    Returns
    -------
    str
        The YAML file.

    """
    from robodyn_ros.bringup import (CONTROLLER_TYPES, DEFAULT_RATE, EFFORT_CONTROLLER,
                                     JOINT_STATE_BROADCASTER)
    joints = ', '.join(model.joint_names)
    return f"""# {_generated(name)}
#
# ros2_control controllers of the {name}, portable across Humble, Jazzy and
# Kilted: controller types under controller_manager (read by every
# distribution), controller parameters in the controller's own block, and
# the generic forward command controller on the effort interface (the
# effort_controllers/JointGroupEffortController specialization is removed on
# rolling). robodyn's controller publishes std_msgs/Float64MultiArray on
# {EFFORT_CONTROLLER}/commands, one torque per joint in the order of `joints`.
# The /**/ keys match the nodes in any namespace.
/**/controller_manager:
  ros__parameters:
    update_rate: {DEFAULT_RATE}  # Hz
    {JOINT_STATE_BROADCASTER}:
      type: {CONTROLLER_TYPES[JOINT_STATE_BROADCASTER]}
    {EFFORT_CONTROLLER}:
      type: {CONTROLLER_TYPES[EFFORT_CONTROLLER]}

/**/{EFFORT_CONTROLLER}:
  ros__parameters:
    joints: [{joints}]
    interface_name: effort
"""


def generated_files():
    """
    Text of every generated file.

    Returns
    -------
    dict
        Path relative to the repository root -> file text.

    """
    from robodyn_ros.model import library
    files = {}
    for name in library.names():
        model = library.load(name)
        files[os.path.join('urdf', f'{name}.description.xacro')] = description_xacro(name,
                                                                                     model)
        files[os.path.join('urdf', f'{name}.ros2_control.xacro')] = ros2_control_xacro(name,
                                                                                       model)
        files[os.path.join('urdf', f'{name}.urdf.xacro')] = robot_xacro(name, model)
        files[os.path.join('config', f'{name}_controllers.yaml')] = controllers_yaml(name,
                                                                                     model)
    return files


def main(argv=None):
    """
    Write (or check) the generated assets.

    Parameters
    ----------
    argv : list of str, optional
        Command-line arguments.

    Returns
    -------
    int
        0 on success; 1 when ``--check`` finds a stale file.

    """
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--check', action='store_true',
                        help='only report files that differ from the generated text')
    args = parser.parse_args(argv)
    stale = []
    for rel, text in generated_files().items():
        path = os.path.join(ROOT, rel)
        current = None
        if os.path.isfile(path):
            with open(path, 'r', encoding='utf-8') as fh:
                current = fh.read()
        if current == text:
            continue
        stale.append(rel)
        if not args.check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(text)
    verb = 'out of date' if args.check else 'written'
    for rel in stale:
        print(f'{rel}: {verb}')
    return 1 if args.check and stale else 0


if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

if __name__ == '__main__':
    sys.exit(main())
