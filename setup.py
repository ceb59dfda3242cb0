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

"""Build script for the robodyn_ros ament_python package."""

from glob import glob
import os

from setuptools import find_packages, setup

package_name = 'robodyn_ros'


def _files(pattern):
    return sorted(f for f in glob(pattern) if os.path.isfile(f))


setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        (os.path.join('share', package_name, 'launch'), _files('launch/*.launch.py')),
        (os.path.join('share', package_name, 'urdf'),
         _files('urdf/*.urdf') + _files('urdf/*.xacro')),
        (os.path.join('share', package_name, 'urdf', 'common'), _files('urdf/common/*.xacro')),
        (os.path.join('share', package_name, 'config'), _files('config/*.yaml')),
        (os.path.join('share', package_name, 'rviz'), _files('rviz/*.rviz')),
    ],
    package_data={'robodyn_ros.hardware.cia402': ['*.eds']},
    install_requires=['setuptools', 'canopen', 'python-can', 'msgpack'],
    zip_safe=False,
    maintainer='robodyn_ros maintainers',
    maintainer_email='maintainers@robodyn.invalid',
    description='Model-based control of robot arms for ROS 2: custom recursive '
                'Newton-Euler dynamics, trajectory planning, computed-torque and '
                'variable-structure self-tuning control, a friction-aware driver-board '
                'interface and parallel dynamics.',
    license='Apache-2.0',
    extras_require={'test': ['pytest', 'hypothesis']},
    entry_points={
        'console_scripts': [
            'robodyn = robodyn_ros.cli.main:main',
            'controller = robodyn_ros.nodes.controller_node:main',
            'trajectory_planner = robodyn_ros.nodes.trajectory_planner_node:main',
            'parallel_dynamics = robodyn_ros.nodes.parallel_dynamics_node:main',
            'parallel_dynamics_worker = robodyn_ros.nodes.parallel_dynamics_worker_node:main',
            'hardware_interface = robodyn_ros.nodes.hardware_interface_node:main',
            'control_loop = robodyn_ros.nodes.control_loop_node:main',
        ],
    },
)
