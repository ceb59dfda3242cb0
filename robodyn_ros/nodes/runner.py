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
Process entry point shared by the node scripts.

Initialises rclpy (with the robodyn ROS environment defaults), builds the
node, spins it on the chosen executor, and shuts down cleanly on Ctrl-C or
an external shutdown (portable across Humble, Jazzy and Kilted).
"""

import sys

from ..ros_env import apply_ros_env_defaults


def run_node(factory, args=None, threads=1):
    """
    Run one node until shutdown.

    Parameters
    ----------
    factory : callable
        Returns the node; called after ``rclpy.init``.
    args : list of str, optional
        Command-line arguments (ROS arguments included).
    threads : int
        1 for a single-threaded executor, more for a multi-threaded one.

    Returns
    -------
    int
        Exit code: 0 on a clean shutdown, 1 if the node failed to start.

    """
    apply_ros_env_defaults()
    import rclpy
    from rclpy.executors import (ExternalShutdownException, MultiThreadedExecutor,
                                 SingleThreadedExecutor)
    rclpy.init(args=args)
    node = None
    try:
        try:
            node = factory()
        except Exception as exc:  # report any start-up failure in one line
            print(f'robodyn: node failed to start: {type(exc).__name__}: {exc}', file=sys.stderr)
            return 1
        executor = (MultiThreadedExecutor(num_threads=threads) if threads > 1
                    else SingleThreadedExecutor())
        executor.add_node(node)
        try:
            executor.spin()
        except (KeyboardInterrupt, ExternalShutdownException):
            pass
        finally:
            executor.shutdown()
        return 0
    finally:
        if node is not None:
            shutdown = getattr(node, 'on_process_exit', None)
            if shutdown is not None:
                shutdown()
            node.destroy_node()
        rclpy.try_shutdown()
