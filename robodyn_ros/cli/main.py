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
``run(args)``. Every error of the input is one line on stderr: errors of the
package (:class:`~robodyn_ros.errors.RobodynError`) and bad arguments give
exit code 2, an unknown option also prints the usage of the sub-command that
was given; files that cannot be read or written at run time give exit code
1; a closed pipe (``robodyn model stanford | head``) ends quietly. Model
warnings are printed as one line each, before any table.
"""

import importlib
import os
import sys
import warnings

from .args import Parser
from .. import __version__
from ..errors import ModelWarning, RobodynError

#: Sub-command name -> module (relative to this package).
COMMANDS = {
    'demo': '.demo_cmd',
    'model': '.model_cmd',
    'check': '.check_cmd',
    'codegen': '.codegen_cmd',
    'sim': '.sim_cmd',
    'sim-board': '.sim_board_cmd',
    'sim-drive': '.sim_drive_cmd',
    'identify': '.identify_cmd',
    'faults': '.faults_cmd',
    'schedule': '.schedule_cmd',
    'bench': '.bench_cmd',
    'warm': '.warm_cmd',
    'docs': '.docs_cmd',
}

#: Old hyphenated names, kept as aliases: alias -> (command, sub-command).
ALIASES = {'bench-planner': ('bench', 'planner'), 'bench-board': ('bench', 'board')}


def build_parser(only=None):
    """
    Build the argument parser with every sub-command, or only the one given.

    Each sub-command's module is imported to add its parser, and some
    import much (the control laws, Pinocchio, numba): a process started as
    ``robodyn sim-board`` (a simulated board in every graph) is ready in
    about a second instead of three when it imports only its own.

    Parameters
    ----------
    only : str, optional
        A sub-command or alias name: the parser has that one only (the
        full parser for anything else, e.g. ``--help``).

    Returns
    -------
    argparse.ArgumentParser
        The parser.

    """
    commands, aliases = COMMANDS, ALIASES
    if only in COMMANDS:
        commands, aliases = {only: COMMANDS[only]}, {}
    elif only in ALIASES:
        commands, aliases = {}, {only: ALIASES[only]}
    parser = Parser(
        prog='robodyn',
        description='robodyn_ros: model-based control of robot arms for ROS 2. '
                    '"robodyn COMMAND --help" documents each command.')
    parser.add_argument('--version', action='version', version=f'robodyn {__version__}')
    sub = parser.add_subparsers(dest='command', metavar='COMMAND')
    sub.required = True
    for name, module in commands.items():
        importlib.import_module(module, __package__).add_parser(sub)
    for alias, (command, target) in aliases.items():
        importlib.import_module(COMMANDS[command], __package__).add_alias(sub, alias, target)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None, command=''):
    if issubclass(category, ModelWarning):
        print(f'robodyn {command}: warning: {message}', file=sys.stderr)
    else:
        _ORIGINAL_SHOWWARNING(message, category, filename, lineno, file, line)


_ORIGINAL_SHOWWARNING = warnings.showwarning


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
        Exit code: 0 on success, 2 on an error of the input, 1 when a file
        cannot be read or written at run time.

    """
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        args.command_parser.error(f'unrecognized arguments: {" ".join(extra)}')
    args.argv = argv        # to run again elsewhere
    name = args.command_parser.prog.replace('robodyn ', '', 1)

    def show(*warning, **kwargs):
        _show_warning(*warning, command=name, **kwargs)

    warnings.showwarning = show
    try:
        code = int(args.run(args) or 0)
        sys.stdout.flush()
        return code
    except RobodynError as exc:
        print(f'robodyn {name}: error: {exc}', file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (| head): no traceback, and no second error at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:
        where = f': {exc.filename}' if exc.filename else ''
        print(f'robodyn {name}: error: {exc.strerror or exc}{where}', file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        warnings.showwarning = _ORIGINAL_SHOWWARNING


if __name__ == '__main__':
    sys.exit(main())
