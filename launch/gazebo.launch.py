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
Robodyn closing the loop on Gazebo through gz_ros2_control.

Gazebo (``ros_gz_sim``) simulates the arm from the URDF's inertials and joint
friction; its system plugin runs controller_manager with the same
controllers as ``ros2_control.launch.py`` (gz_ros2_control on Jazzy and
later, ign_ros2_control with Gazebo Fortress on Humble, chosen by the xacro
from ``ROS_DISTRO``). Every node uses the simulation clock::

    ros2 launch robodyn_ros gazebo.launch.py robot:=puma560
"""

from launch import LaunchDescription
from launch.actions import (DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction,
                            RegisterEventHandler)
from launch.event_handlers import OnProcessExit
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import (Command, FindExecutable, LaunchConfiguration,
                                  PathJoinSubstitution)
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

ROBOTS = ['puma560', 'cmu_dd_arm2', 'ma3000', 'rx90', 'stanford']


def _share(*parts):
    return PathJoinSubstitution([FindPackageShare('robodyn_ros'), *parts])


def _launch_setup(context):
    robot = LaunchConfiguration('robot').perform(context)
    namespace = LaunchConfiguration('namespace').perform(context)
    description = ParameterValue(Command([
        FindExecutable(name='xacro'), ' ', _share('urdf', f'{robot}.urdf.xacro'),
        ' ros2_control:=gazebo controllers_file:=',
        _share('config', f'{robot}_controllers.yaml'),
        ' namespace:=', namespace.strip('/')]), value_type=str)
    sim_time = {'use_sim_time': True}
    create = Node(package='ros_gz_sim', executable='create', namespace=namespace,
                  output='screen',
                  arguments=['-topic', 'robot_description', '-name', robot,
                             '-allow_renaming', 'true'])
    spawner = ['--controller-manager', 'controller_manager']
    broadcaster = Node(package='controller_manager', executable='spawner', namespace=namespace,
                       output='screen', arguments=['joint_state_broadcaster'] + spawner)
    effort = Node(package='controller_manager', executable='spawner', namespace=namespace,
                  output='screen', arguments=['effort_controller'] + spawner)
    actions = [
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(PathJoinSubstitution([
                FindPackageShare('ros_gz_sim'), 'launch', 'gz_sim.launch.py'])),
            launch_arguments=[('gz_args', LaunchConfiguration('gz_args'))]),
        Node(package='ros_gz_bridge', executable='parameter_bridge', output='screen',
             arguments=['/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock']),
        Node(package='robot_state_publisher', executable='robot_state_publisher',
             name='robot_state_publisher', namespace=namespace, output='screen',
             parameters=[{'robot_description': description}, sim_time]),
        create,
        RegisterEventHandler(OnProcessExit(target_action=create, on_exit=[broadcaster])),
        RegisterEventHandler(OnProcessExit(target_action=broadcaster, on_exit=[effort])),
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(_share('launch', 'robodyn_nodes.launch.py')),
            launch_arguments=[
                ('robot', robot), ('namespace', namespace),
                ('rate', LaunchConfiguration('rate')),
                ('dynamics_workers', LaunchConfiguration('dynamics_workers')),
                ('effort_controller', 'effort_controller'), ('use_sim_time', 'true')]),
    ]
    if LaunchConfiguration('rviz').perform(context) == 'true':
        actions.append(Node(package='rviz2', executable='rviz2', name='rviz2',
                            namespace=namespace, output='log',
                            arguments=['-d', _share('rviz', 'robodyn.rviz')],
                            parameters=[sim_time]))
    return actions


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560', choices=ROBOTS,
                              description='Library robot'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of every node'),
        DeclareLaunchArgument('rate', default_value='1000',
                              description='robodyn control rate [Hz] (the controller manager '
                                          'runs at update_rate of the controllers YAML)'),
        DeclareLaunchArgument('gz_args', default_value='-r -v 1 empty.sdf',
                              description='Arguments of gz sim (add -s for no GUI)'),
        DeclareLaunchArgument('dynamics_workers', default_value='0',
                              description='Worker processes of the parallel dynamics node'),
        DeclareLaunchArgument('rviz', default_value='false', choices=['true', 'false'],
                              description='Start RViz'),
        OpaqueFunction(function=_launch_setup),
    ])
