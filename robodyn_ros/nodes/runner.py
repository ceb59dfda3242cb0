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
an external shutdown (portable across Humble, Jazzy and Kilted). ``--help``
(before any ``--ros-args``) prints the node's description and parameters and
exits; ROS arguments that rclpy refuses (a missing ``--params-file``) and a
node that cannot start are one line on stderr and a non-zero exit code.
Model warnings are printed as one line each. SIGUSR1 prints the stack of
every thread to stderr (how a supervisor asks a node that stopped answering
where it is stuck).
"""

import os
import sys
import warnings

from ..errors import ModelWarning
from ..ros_env import apply_ros_env_defaults


def node_help(prog, module):
    """
    Help text of a node executable: usage, description and parameters.

    Parameters
    ----------
    prog : str
        Executable name.
    module : module
        The node's module (its docstring; its ``node_parameter_specs()``,
        else its ``parameter_specs()``, if any).

    Returns
    -------
    str
        The text.

    """
    lines = [f'usage: {prog} [--help] [--ros-args -p NAME:=VALUE ... '
             '--params-file FILE -r FROM:=TO ...]', '']
    lines += [(module.__doc__ or '').strip(), '', 'Parameters (docs/reference.md has them all):']
    specs = getattr(module, 'node_parameter_specs', None) or getattr(module, 'parameter_specs',
                                                                     None)
    specs = list(specs() if specs is not None else ())
    if 'robot' not in {spec.name for spec in specs}:  # declared by the model source
        from .model_source import model_parameters
        specs = model_parameters() + specs
    for spec in specs:
        bounds = []
        if spec.choices:
            bounds.append('one of ' + ', '.join(str(c) for c in spec.choices))
        if spec.low is not None or spec.high is not None:
            bounds.append(f'range [{spec.low}, {spec.high}]')
        if spec.read_only:
            bounds.append('read-only')
        extra = f' ({"; ".join(bounds)})' if bounds else ''
        lines.append(f'  {spec.name} (default {spec.default!r}){extra}: {spec.description}')
    return '\n'.join(lines)


def _user_args(args):
    argv = list(sys.argv[1:] if args is None else args)
    return argv[:argv.index('--ros-args')] if '--ros-args' in argv else argv


def _missing_params_files(args):
    """Return the first ``--params-file`` after ``--ros-args`` that does not exist, or None."""
    argv = list(sys.argv[1:] if args is None else args)
    ros = argv[argv.index('--ros-args') + 1:] if '--ros-args' in argv else []
    for flag, value in zip(ros, ros[1:]):
        if flag == '--params-file' and not os.path.isfile(value):
            return value
    return None


def _show_warning(message, category, filename, lineno, file=None, line=None):
    if issubclass(category, ModelWarning):
        print(f'{os.path.basename(sys.argv[0])}: warning: {message}', file=sys.stderr)
    else:
        _SHOWWARNING(message, category, filename, lineno, file, line)


_SHOWWARNING = warnings.showwarning


def _dump_stacks_on_request():
    """
    Print every thread's stack to stderr on SIGUSR1 and on a fatal signal.

    SIGUSR1: a hung node can be asked why. A crash in native code (SIGSEGV,
    SIGABRT, ...) otherwise ends the process with nothing in its log.
    """
    import faulthandler
    import signal
    faulthandler.enable(file=sys.stderr, all_threads=True)
    if hasattr(signal, 'SIGUSR1'):
        faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)


def run_node(factory, args=None, threads=1):
    """
    Run one node until shutdown.

    Parameters
    ----------
    factory : callable
        Returns the node; called after ``rclpy.init``. Its module (where
        the class or lambda is defined) gives the ``--help`` text.
    args : list of str, optional
        Command-line arguments (ROS arguments included).
    threads : int
        1 for a single-threaded executor, more for a multi-threaded one.

    Returns
    -------
    int
        Exit code: 0 on a clean shutdown or after ``--help``, 1 if the node
        failed to start, 2 if rclpy refused the arguments.

    """
    prog = os.path.basename(sys.argv[0]) or 'node'
    if {'-h', '--help'} & set(_user_args(args)):
        print(node_help(prog, sys.modules[factory.__module__]))
        return 0
    missing = _missing_params_files(args)
    if missing:
        print(f'{prog}: error: --params-file {missing}: no such file', file=sys.stderr)
        return 2
    apply_ros_env_defaults()
    warnings.showwarning = _show_warning
    import rclpy
    from rclpy.executors import (ExternalShutdownException, MultiThreadedExecutor,
                                 SingleThreadedExecutor)
    try:
        rclpy.init(args=args)
    except Exception as exc:  # rclpy raises RCLError (and others) for bad ROS arguments
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f'{prog}: error: invalid ROS arguments: {first}', file=sys.stderr)
        return 2
    node = None
    try:
        try:
            node = factory()
        except Exception as exc:  # report any start-up failure in one line
            print(f'{prog}: error: node failed to start: {exc}', file=sys.stderr)
            return 1
        _dump_stacks_on_request()
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
