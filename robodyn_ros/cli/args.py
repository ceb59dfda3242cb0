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
Argument handling shared by the ``robodyn`` commands.

* :class:`Parser`: an ``argparse`` parser whose errors are one line (the
  usage is printed only when the command line itself is malformed: an
  unknown option or a missing argument, and then the usage of the command
  that was given, not the top-level one);
* argument types that refuse out-of-range values with one line naming the
  option (:func:`int_at_least`, :func:`port`, :func:`positive_float`, ...);
* :func:`output_file` and :func:`output_dir`, to check an output path
  before any work starts.
"""

import argparse
import math
import os
import sys

from ..errors import InputError

#: Error messages of argparse after which the usage helps (the line itself is malformed).
_USAGE_ERRORS = ('unrecognized arguments', 'the following arguments are required',
                 'invalid choice', 'expected one argument', 'expected at least one argument',
                 'ambiguous option', 'not allowed with argument')


class Parser(argparse.ArgumentParser):
    """
    An argument parser with one-line errors (exit code 2).

    Each parser puts itself in the parsed arguments as ``command_parser``; a
    sub-command's parser (made by ``add_subparsers``, of this class too)
    overrides its parent's, so the innermost command given is the one that
    reports the errors found after parsing.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.set_defaults(command_parser=self)

    def error(self, message):
        """
        Print one line naming the problem (and the usage for a malformed line), exit 2.

        Parameters
        ----------
        message : str
            argparse's message.

        """
        if any(key in message for key in _USAGE_ERRORS):
            self.print_usage(sys.stderr)
        self.exit(2, f'{self.prog}: error: {message} (see {self.prog} --help)\n')


def _number(text, kind):
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f'must be {"an integer" if kind is int else "a number"}, got {text!r}') from None
    if kind is float and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f'must be finite, got {text!r}')
    return value


def int_at_least(low):
    """
    Return an argparse type for integers ``>= low``.

    Parameters
    ----------
    low : int
        Smallest value allowed.

    Returns
    -------
    callable
        The type.

    """
    def parse(text):
        value = _number(text, int)
        if value < low:
            raise argparse.ArgumentTypeError(f'must be an integer >= {low}, got {value}')
        return value
    parse.__name__ = f'integer >= {low}'
    return parse


def int_between(low, high):
    """
    Return an argparse type for integers in ``[low, high]``.

    Parameters
    ----------
    low, high : int
        Range allowed.

    Returns
    -------
    callable
        The type.

    """
    def parse(text):
        value = _number(text, int)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f'must be an integer in [{low}, {high}], got '
                                             f'{value}')
        return value
    parse.__name__ = f'integer in [{low}, {high}]'
    return parse


#: A UDP port, 0 meaning any free port.
port = int_between(0, 65535)


def _float_type(name, accept, rule):
    """Return an argparse type for finite numbers that ``accept`` (else ``rule`` is said)."""
    def parse(text):
        value = _number(text, float)
        if accept is not None and not accept(value):
            raise argparse.ArgumentTypeError(f'{rule}, got {value:g}')
        return value
    parse.__name__ = name
    return parse


#: A finite number > 0.
positive_float = _float_type('number > 0', lambda v: v > 0.0, 'must be > 0')
#: A finite number >= 0.
nonnegative_float = _float_type('number >= 0', lambda v: v >= 0.0, 'must be >= 0')
#: Any finite number.
finite_float = _float_type('finite number', None, '')


#: Default board and control rate on CiA 402 drives [Hz]: six drives' SYNC and
#: PDOs take 42 % of a 1 Mbit/s CAN bus at 250 Hz (83 % at 500 Hz, 166 % at 1 kHz).
CIA402_RATE = 250.0


def control_rate(args, board_rate):
    """
    Return the ``--rate`` given, or the default of the chosen ``--hardware`` [Hz].

    Parameters
    ----------
    args : argparse.Namespace
        ``rate`` (None when not given) and ``hardware``.
    board_rate : float
        Default on the driver board [Hz].

    Returns
    -------
    float
        The rate [Hz].

    """
    if args.rate is not None:
        return args.rate
    return CIA402_RATE if args.hardware == 'cia402' else board_rate


def output_file(path, option):
    """
    Check, before any work, that a file can be written at ``path``.

    Parameters
    ----------
    path : str
        The output file.
    option : str
        The option that gave it, for the message (e.g. ``'--urdf'``).

    Raises
    ------
    InputError
        Naming the option, when the folder does not exist or is not
        writable, or the path is a folder or a file that cannot be replaced.

    """
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(option, f'{path} is a folder, not a file')
    if not os.path.isdir(folder):
        raise InputError(option, f'folder {folder} does not exist')
    target = path if os.path.exists(path) else folder
    if not os.access(target, os.W_OK):
        raise InputError(option, f'cannot write {path}: permission denied')


def output_dir(path, option):
    """
    Check, before any work, that ``path`` is (or can become) a writable folder.

    Parameters
    ----------
    path : str
        The output folder.
    option : str
        The option that gave it, for the message (e.g. ``'--out'``).

    Raises
    ------
    InputError
        Naming the option, when the path is a file or cannot be created or
        written.

    """
    here = os.path.abspath(path)
    while not os.path.exists(here):
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    if not os.path.isdir(here):
        raise InputError(option, f'{here} is a file, not a folder')
    if not os.access(here, os.W_OK | os.X_OK):
        raise InputError(option, f'cannot create or write {path}: permission denied')
