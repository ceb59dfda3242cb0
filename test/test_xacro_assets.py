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
The ros2_control, RViz and Gazebo assets: xacro, controllers YAML, RViz and node parameters.

Every ``urdf/<robot>.urdf.xacro`` is expanded with the PyPI xacro for every
``ros2_control`` variant and distribution; urdf_parser_py, Pinocchio and
robodyn load the result, which must carry the library model's kinematics and
inertia; joint names must agree across the URDF, the ``<ros2_control>`` tag
and the controllers YAML; plugin and controller names must exist on every
supported distribution (table in ``test/data/ros2_control_distros.yaml``).
"""

import functools
import importlib.util
import itertools
import os
import xml.etree.ElementTree as ElementTree

import fake_launch
from model_compare import model_differences
import numpy as np
import pinocchio as pin
import pytest
from robodyn_ros import bringup
from robodyn_ros.model import Inertial, library, RobotModel
from robodyn_ros.model.transforms import rpy_to_matrix
from sdformat_helpers import load_with_sdformat
from urdf_parser_py import urdf as urdf_model
import xacro
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROBOTS = library.names()
VARIANTS = bringup.ROS2_CONTROL_VARIANTS
DISTROS = bringup.SUPPORTED_DISTROS

with open(os.path.join(ROOT, 'test', 'data', 'ros2_control_distros.yaml')) as _fh:
    DISTRO_TABLE = yaml.safe_load(_fh)['distros']


def _path(*parts):
    return os.path.join(ROOT, *parts)


def _generator():
    spec = importlib.util.spec_from_file_location(
        'generate_xacro_assets', _path('scripts', 'generate_xacro_assets.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.lru_cache(maxsize=None)
def expand(robot, variant='none', distro='jazzy', namespace=''):
    """URDF text of a robot's xacro (the Gazebo variant with an explicit controllers file)."""
    mappings = {'ros2_control': variant, 'ros_distro': distro, 'namespace': namespace}
    if variant == 'gazebo':
        mappings['controllers_file'] = _path('config', f'{robot}_controllers.yaml')
    return xacro.process_file(_path('urdf', f'{robot}.urdf.xacro'),
                              mappings=mappings).toprettyxml(indent='  ')


def with_simulator_inertials(robot, model):
    """Return the library model with the physical bodies of the Gazebo variant."""
    bodies = list(model.inertials)
    simulator = library.simulator_inertials(robot)
    for i, joint in enumerate(model.joints):
        if joint.link in simulator:
            mass, moments, com = simulator[joint.link]
            bodies[i] = Inertial(mass, com, np.diag(moments))
    return model.replace_inertials(bodies)


def _controllers(robot):
    with open(_path('config', f'{robot}_controllers.yaml')) as fh:
        data = yaml.safe_load(fh)
    return data['/**/controller_manager']['ros__parameters'], \
        data['/**/effort_controller']['ros__parameters']


def test_generated_assets_are_up_to_date():
    for rel, text in _generator().generated_files().items():
        with open(_path(rel), encoding='utf-8') as fh:
            assert fh.read() == text, f'{rel} is stale: run scripts/generate_xacro_assets.py'


def test_every_library_robot_has_assets():
    for robot in ROBOTS:
        for rel in (('urdf', f'{robot}.urdf.xacro'), ('config', f'{robot}_controllers.yaml'),
                    ('urdf', f'{robot}.urdf')):
            assert os.path.isfile(_path(*rel)), rel


@pytest.mark.parametrize('robot,variant,distro',
                         list(itertools.product(ROBOTS, VARIANTS, DISTROS)))
def test_xacro_expands_and_every_loader_agrees_with_the_library(robot, variant, distro):
    text = expand(robot, variant, distro)
    model = library.load(robot)
    if variant == 'gazebo':
        model = with_simulator_inertials(robot, model)
    parsed = urdf_model.URDF.from_xml_string(text)
    movable = [j.name for j in parsed.joints if j.type != 'fixed']
    assert movable == model.joint_names
    diffs = model_differences(model, RobotModel.from_urdf(text), compare_params=False)
    if variant == 'gazebo':
        assert sorted(diffs) == sorted([f"root link differs: '{model.root_link}' vs 'world'",
                                        "frames differ: ['world']"])
    else:
        assert diffs == []
    # Pinocchio reads the expansion as it reads the library URDF (with the same bodies).
    reference = pin.buildModelFromXML(model.to_urdf())
    expanded = pin.buildModelFromXML(text)
    assert expanded.nq == expanded.nv == reference.nq == model.n
    assert [expanded.names[i] for i in range(1, expanded.njoints)] == model.joint_names
    for i in range(1, expanded.njoints):
        a, b = expanded.inertias[i], reference.inertias[i]
        assert a.mass == pytest.approx(b.mass, abs=1e-12)
        np.testing.assert_allclose(a.lever, b.lever, atol=1e-12)
        np.testing.assert_allclose(a.inertia, b.inertia, atol=1e-12)
        np.testing.assert_allclose(expanded.jointPlacements[i].homogeneous,
                                   reference.jointPlacements[i].homogeneous, atol=1e-12)
    rng = np.random.default_rng(8)
    data, ref_data = expanded.createData(), reference.createData()
    for _ in range(5):
        q = model.random_configuration(rng)
        qd, qdd = rng.normal(size=model.n), rng.normal(size=model.n)
        np.testing.assert_allclose(pin.rnea(expanded, data, q, qd, qdd),
                                   pin.rnea(reference, ref_data, q, qd, qdd), atol=1e-9)


def test_default_arguments_need_no_ros_install(monkeypatch):
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_DISTRO', raising=False)
    for robot in ROBOTS:
        text = xacro.process_file(_path('urdf', f'{robot}.urdf.xacro')).toxml()
        assert ElementTree.fromstring(text).find('ros2_control') is None
        model = RobotModel.from_urdf(_path('urdf', f'{robot}.urdf.xacro'))
        assert model_differences(library.load(robot), model, compare_params=False) == []


def test_ros_distro_defaults_to_the_environment(monkeypatch):
    for distro in DISTROS:
        monkeypatch.setenv('ROS_DISTRO', distro)
        text = xacro.process_file(_path('urdf', 'puma560.urdf.xacro'),
                                  mappings={'ros2_control': 'topic'}).toxml()
        plugin = ElementTree.fromstring(text).findtext('ros2_control/hardware/plugin')
        assert plugin == DISTRO_TABLE[distro]['hardware']['topic']['plugin']


def test_gazebo_default_controllers_file_is_found_through_the_ament_index(monkeypatch,
                                                                          tmp_path):
    fake_launch.build_install_tree(ROOT, str(tmp_path))
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    for robot in ROBOTS:
        text = xacro.process_file(_path('urdf', f'{robot}.urdf.xacro'),
                                  mappings={'ros2_control': 'gazebo'}).toxml()
        path = ElementTree.fromstring(text).findtext('gazebo/plugin/parameters')
        assert path == os.path.join(str(tmp_path), 'share', 'robodyn_ros', 'config',
                                    f'{robot}_controllers.yaml')
        assert os.path.isfile(path)


@pytest.mark.parametrize('value', ['bogus', 'Mock', ''])
def test_unknown_ros2_control_variant_is_refused(value):
    with pytest.raises(xacro.XacroException, match='ros2_control must be one of'):
        xacro.process_file(_path('urdf', 'ma3000.urdf.xacro'), mappings={'ros2_control': value})


@pytest.mark.parametrize('robot,variant,distro',
                         [(r, v, d) for r in ROBOTS for v in VARIANTS[1:] for d in DISTROS])
def test_ros2_control_tag(robot, variant, distro):
    text = expand(robot, variant, distro)
    root = ElementTree.fromstring(text)
    tags = root.findall('ros2_control')
    assert len(tags) == 1
    tag = tags[0]
    assert tag.get('type') == 'system'
    assert tag.findtext('hardware/plugin') == DISTRO_TABLE[distro]['hardware'][variant]['plugin']
    parsed = urdf_model.URDF.from_xml_string(text)
    limits = {j.name: j.limit for j in parsed.joints if j.type != 'fixed'}
    joints = tag.findall('joint')
    assert [j.get('name') for j in joints] == library.load(robot).joint_names
    for joint in joints:
        commands = joint.findall('command_interface')
        assert [c.get('name') for c in commands] == ['effort']
        params = {p.get('name'): float(p.text) for p in commands[0].findall('param')}
        effort = limits[joint.get('name')].effort
        # Each effort command starts at 0 (without initial_value: NaN on Jazzy and later).
        assert params == {'min': -effort, 'max': effort, 'initial_value': 0.0}
        states = {s.get('name'): s for s in joint.findall('state_interface')}
        assert list(states) == ['position', 'velocity', 'effort']
        start = float(states['position'].find("param[@name='initial_value']").text)
        limit = limits[joint.get('name')]
        assert limit.lower <= start <= limit.upper
        assert start == (min(max(0.0, limit.lower), limit.upper))
    hardware = {p.get('name'): p.text for p in tag.findall('hardware/param')}
    if variant == 'topic':
        assert hardware == {'joint_commands_topic': bringup.HARDWARE_JOINT_COMMANDS,
                            'joint_states_topic': bringup.HARDWARE_JOINT_STATES,
                            'trigger_joint_command_threshold': '-1',
                            'sum_wrapped_joint_states': 'false'}
    else:
        assert hardware == {}
    plugins = root.findall('gazebo/plugin')
    if variant == 'gazebo':
        assert len(plugins) == 1
        system = DISTRO_TABLE[distro]['gazebo_system']
        assert plugins[0].get('filename') == system['filename']
        assert plugins[0].get('name') == system['name']
        assert plugins[0].findtext('parameters') == _path('config', f'{robot}_controllers.yaml')
        assert plugins[0].find('ros') is None
        world = [j for j in parsed.joints if j.parent == 'world']
        assert len(world) == 1 and world[0].type == 'fixed' and world[0].child == 'base_link'
    else:
        assert plugins == []
        assert 'world' not in parsed.link_map


def _gazebo_files(tmp_path, texts):
    paths = {}
    for key, text in texts.items():
        path = tmp_path / f'{key}.urdf'
        path.write_text(text)
        paths[str(path)] = key
    return paths


def test_gazebo_descriptions_load_in_sdformat(tmp_path):
    """
    The URDF parser of sdformat keeps every link and joint of each Gazebo description.

    sdformat drops a massless link whose parent is world (and the joint to it),
    and any massless link with everything below it, silently; Gazebo then has
    no arm to spawn.
    """
    texts = {f'{robot}-{distro}': expand(robot, 'gazebo', distro)
             for robot in ROBOTS for distro in DISTROS}
    paths = _gazebo_files(tmp_path, texts)
    results = load_with_sdformat(list(paths))
    for path, key in paths.items():
        robot = key.split('-')[0]
        model, result = library.load(robot), results[path]
        assert result.errors == [] and result.model == robot, (key, result.errors)
        links = [model.root_link] + model.link_names
        assert all(result.links.get(link, 0.0) > 0.0 for link in links), (key, result.links)
        assert result.joints[f'world_to_{model.root_link}'] == ('world', model.root_link)
        for joint in model.joints:
            parent = model.root_link if joint.parent < 0 else model.joints[joint.parent].link
            assert result.joints[joint.name] == (parent, joint.link), (key, joint.name)


def test_sdformat_check_catches_the_old_faults(tmp_path):
    """Without the base inertial, or with a massless link, sdformat loses the arm."""
    text = expand('puma560', 'gazebo', 'jazzy')
    root = ElementTree.fromstring(text)
    base = root.find("link[@name='base_link']")
    no_base = ElementTree.fromstring(text)
    no_base.find("link[@name='base_link']").remove(
        no_base.find("link[@name='base_link']/inertial"))
    massless = ElementTree.fromstring(text)
    massless.find("link[@name='link1']/inertial/mass").set('value', '0')
    assert base.find('inertial') is not None
    paths = _gazebo_files(tmp_path, {
        'no_base': ElementTree.tostring(no_base, encoding='unicode'),
        'massless': ElementTree.tostring(massless, encoding='unicode')})
    results = load_with_sdformat(list(paths))
    for path, key in paths.items():
        result = results[path]
        assert 'joint6' not in result.joints, key
    assert any('at least one link' in e for e in results[str(tmp_path / 'no_base.urdf')].errors)


def test_gazebo_plugin_namespace():
    plugin = ElementTree.fromstring(expand('rx90', 'gazebo', 'kilted', 'cell/arm2')).find(
        'gazebo/plugin')
    assert plugin.findtext('ros/namespace') == 'cell/arm2'


def test_topic_names_are_arguments():
    text = xacro.process_file(_path('urdf', 'stanford.urdf.xacro'), mappings={
        'ros2_control': 'topic', 'joint_commands_topic': '/a/cmd',
        'joint_states_topic': '/a/states'}).toxml()
    params = {p.get('name'): p.text
              for p in ElementTree.fromstring(text).findall('ros2_control/hardware/param')}
    assert params['joint_commands_topic'] == '/a/cmd'
    assert params['joint_states_topic'] == '/a/states'


def _segment(visual):
    rot = rpy_to_matrix(visual.origin.rpy)
    centre = np.asarray(visual.origin.xyz)
    half = 0.5 * visual.geometry.length * rot[:, 2]
    return centre - half, centre + half, rot[:, 2]


@pytest.mark.parametrize('robot', ROBOTS)
def test_visual_and_collision_geometry_follow_the_joints(robot):
    parsed = urdf_model.URDF.from_xml_string(expand(robot))
    model = library.load(robot)
    for link in parsed.links:
        assert len(link.visuals) == len(link.collisions)
        for visual, collision in zip(link.visuals, link.collisions):
            assert isinstance(visual.geometry, urdf_model.Cylinder)
            assert isinstance(collision.geometry, urdf_model.Cylinder)
            assert (visual.geometry.radius, visual.geometry.length) == \
                (collision.geometry.radius, collision.geometry.length)
            assert visual.origin.xyz == collision.origin.xyz
            assert 0.0 < visual.geometry.radius <= 0.2
            assert 0.0 < visual.geometry.length < 3.0
            assert visual.material is not None
        if link.inertial is not None and link.inertial.mass > 0.0:
            assert link.visuals, f'{link.name} has mass but nothing to see'
    assert parsed.link_map[model.root_link].visuals
    for joint in parsed.joints:
        if joint.type == 'fixed':
            continue
        origin = np.asarray(joint.origin.xyz)
        axis = rpy_to_matrix(joint.origin.rpy) @ np.asarray(joint.axis)
        segments = [_segment(v) for v in parsed.link_map[joint.parent].visuals]
        # A bone of the parent link runs from its frame origin to the joint ...
        if np.linalg.norm(origin) > 1e-3:
            assert any(min(np.linalg.norm(a), np.linalg.norm(b)) < 1e-4
                       and min(np.linalg.norm(a - origin), np.linalg.norm(b - origin)) < 1e-4
                       for a, b, _ in segments), f'{joint.name}: no bone reaches the joint'
        # ... and a housing sits on the joint, along its axis.
        assert any(np.linalg.norm(0.5 * (a + b) - origin) < 1e-4
                   and abs(abs(float(direction @ axis)) - 1.0) < 1e-6
                   for a, b, direction in segments), f'{joint.name}: no housing'


def test_rotation_from_z_handles_every_direction():
    generator = _generator()
    rng = np.random.default_rng(3)
    directions = [(0, 0, 1), (0, 0, -1), (1e-13, 0, -1), (1, 0, 0)]
    directions += list(rng.normal(size=(20, 3)))
    for d in directions:
        d = np.asarray(d, dtype=float)
        rot = generator._rotation_from_z(d)
        np.testing.assert_allclose(rot @ rot.T, np.eye(3), atol=1e-12)
        assert np.linalg.det(rot) == pytest.approx(1.0)
        np.testing.assert_allclose(rot[:, 2], d / np.linalg.norm(d), atol=1e-9)


@pytest.mark.parametrize('robot', ROBOTS)
def test_controllers_yaml_agrees_with_the_urdf_on_every_distro(robot):
    manager, effort = _controllers(robot)
    text = expand(robot, 'mock')
    urdf_joints = [j.name for j in urdf_model.URDF.from_xml_string(text).joints
                   if j.type != 'fixed']
    tag_joints = [j.get('name')
                  for j in ElementTree.fromstring(text).findall('ros2_control/joint')]
    assert effort['joints'] == urdf_joints == tag_joints
    assert effort['interface_name'] == 'effort'
    assert manager['update_rate'] == bringup.DEFAULT_RATE
    assert isinstance(manager['update_rate'], int)
    types = {name: spec['type'] for name, spec in manager.items() if isinstance(spec, dict)}
    assert types == bringup.CONTROLLER_TYPES
    for distro in DISTROS:
        for kind in types.values():
            assert kind in DISTRO_TABLE[distro]['controllers'], (distro, kind)
    # The library URDF names the same joints.
    with open(_path('urdf', f'{robot}.urdf')) as fh:
        shipped = [j.name for j in urdf_model.URDF.from_xml_string(fh.read()).joints
                   if j.type != 'fixed']
    assert shipped == urdf_joints


def test_controller_packages_are_exec_depends():
    depends = {e.text for e in ElementTree.parse(_path('package.xml')).getroot()
               .findall('exec_depend')}
    for kind in bringup.CONTROLLER_TYPES.values():
        for distro in DISTROS:
            assert DISTRO_TABLE[distro]['controllers'][kind] in depends, kind


def _parameters_through_rcl(path, name, namespace):
    import rclpy
    from rclpy.context import Context
    context = Context()
    rclpy.init(args=['--ros-args', '--params-file', path], context=context)
    try:
        node = rclpy.create_node(name, namespace=namespace, context=context,
                                 automatically_declare_parameters_from_overrides=True)
        try:
            return {k: v.value for k, v in node.get_parameters_by_prefix('').items()
                    if k not in ('use_sim_time', 'start_type_description_service')}
        finally:
            node.destroy_node()
    finally:
        rclpy.shutdown(context=context)


@pytest.mark.parametrize('node', sorted(bringup.NODE_PARAMETERS))
def test_node_parameter_file_applies_in_any_namespace(node):
    path = _path('config', f'{node}.yaml')
    with open(path) as fh:
        data = yaml.safe_load(fh)
    assert list(data) == ['/**']
    values = data['/**']['ros__parameters']
    assert set(values) <= set(bringup.NODE_PARAMETERS[node])
    assert {'robot', 'robot_params'} <= set(values)
    assert values['robot'] in ROBOTS
    for namespace in ('', 'cell/arm1'):
        assert _parameters_through_rcl(path, node, namespace) == values


def test_controllers_yaml_keys_reach_the_nodes_in_a_namespace():
    path = _path('config', 'puma560_controllers.yaml')
    manager, effort = _controllers('puma560')
    flat = {'update_rate': manager['update_rate']}
    flat.update({f'{k}.type': v['type'] for k, v in manager.items() if isinstance(v, dict)})
    assert _parameters_through_rcl(path, 'controller_manager', 'cell/arm1') == flat
    assert _parameters_through_rcl(path, 'effort_controller', 'cell/arm1') == effort
    assert _parameters_through_rcl(path, 'another_node', 'cell/arm1') == {}


def test_rviz_config_shows_the_robot_description_topic():
    with open(_path('rviz', 'robodyn.rviz')) as fh:
        config = yaml.safe_load(fh)
    manager = config['Visualization Manager']
    models = [d for d in manager['Displays'] if d['Class'] == 'rviz_default_plugins/RobotModel']
    assert len(models) == 1
    topic = models[0]['Description Topic']
    assert models[0]['Description Source'] == 'Topic'
    assert topic['Value'] == 'robot_description'  # relative: follows the namespace
    assert topic['Durability Policy'] == 'Transient Local'
    assert topic['Reliability Policy'] == 'Reliable'
    fixed = manager['Global Options']['Fixed Frame']
    for robot in ROBOTS:
        assert fixed in urdf_model.URDF.from_xml_string(expand(robot)).link_map
