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
The ``robodyn`` command.

Each sub-command lives in its own module with ``add_parser(subparsers)`` and
``run(args)``; errors of the package are printed as one line and give exit
code 2.
"""

import argparse
import importlib
import sys

from ..errors import RobodynError

#: Sub-command name -> module (relative to this package).
COMMANDS = {
    'bench': '.bench_cmd',
    'codegen': '.codegen_cmd',
    'model': '.model_cmd',
    'check': '.check_cmd',
    'sim': '.sim_cmd',
    'bench-planner': '..bench.planner',
    'schedule': '.schedule_cmd',
    'sim-board': '.sim_board_cmd',
    'sim-drive': '.sim_drive_cmd',
    'identify': '.identify_cmd',
    'bench-board': '..bench.board',
    'demo': '.demo_cmd',
    'faults': '.faults_cmd',
}


def build_parser():
    """
    Build the argument parser with every sub-command.

    Returns
    -------
    argparse.ArgumentParser
        The parser.

    """
    parser = argparse.ArgumentParser(
        prog='robodyn',
        description='robodyn_ros: model-based control of robot arms for ROS 2.')
    sub = parser.add_subparsers(dest='command', metavar='COMMAND')
    sub.required = True
    for name, module in COMMANDS.items():
        importlib.import_module(module, __package__).add_parser(sub)
    return parser


def main(argv=None):
    """
    Run the ``robodyn`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit code: 0 on success, 2 on an error of the input.

    """
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return int(args.run(args) or 0)
    except RobodynError as exc:
        print(f'robodyn {args.command}: error: {exc}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == '__main__':
    sys.exit(main())
