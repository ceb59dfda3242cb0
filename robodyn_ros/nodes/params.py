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
Parameter declaration with descriptors and validation, shared by every node.

A node lists its parameters as :class:`ParamSpec` records; :func:`declare`
declares them with full descriptors (description, ranges, read-only flag,
constraint text), checks the initial values and installs a set-parameters
callback that refuses invalid run-time changes with a reason.
"""

from dataclasses import dataclass
import math

from rcl_interfaces.msg import (FloatingPointRange, IntegerRange, ParameterDescriptor,
                                SetParametersResult)
from rclpy.parameter import Parameter

from ..errors import RobodynError


class ParameterValidationError(RobodynError, ValueError):
    """A node parameter has an invalid value."""


@dataclass(frozen=True)
class ParamSpec:
    """
    One node parameter.

    Attributes
    ----------
    name : str
        Parameter name.
    default : object
        Default value; ``None`` with ``type`` set declares it without a value.
    description : str
        Human-readable description with units.
    kind : rclpy.parameter.Parameter.Type, optional
        Explicit parameter type (needed for empty arrays).
    low, high : float, optional
        Inclusive range for numbers (and for every element of number arrays).
    choices : tuple, optional
        Allowed values (strings or numbers).
    read_only : bool
        Structural parameters that cannot change at run time.
    check : callable, optional
        ``check(value) -> str or None``: an error message for invalid values.
    constraints : str
        Extra constraint text for the descriptor.

    """

    name: str
    default: object
    description: str
    kind: object = None
    low: float = None
    high: float = None
    choices: tuple = None
    read_only: bool = False
    check: object = None
    constraints: str = ''

    def descriptor(self):
        """
        Build the ROS parameter descriptor.

        Returns
        -------
        rcl_interfaces.msg.ParameterDescriptor
            Descriptor with description, ranges and constraints.

        """
        text = self.constraints
        if self.choices:
            text = (text + '; ' if text else '') + 'one of: ' + ', '.join(map(str, self.choices))
        d = ParameterDescriptor(description=self.description, read_only=self.read_only,
                                additional_constraints=text)
        scalar = self.default if not isinstance(self.default, (list, tuple)) else None
        if self.low is not None and self.high is not None and scalar is not None:
            if isinstance(scalar, bool):
                pass
            elif isinstance(scalar, int):
                d.integer_range = [IntegerRange(from_value=int(self.low),
                                                to_value=int(self.high), step=0)]
            elif isinstance(scalar, float):
                d.floating_point_range = [FloatingPointRange(
                    from_value=float(self.low), to_value=float(self.high), step=0.0)]
        return d

    def validate(self, value):
        """
        Check a value against the range, choices and custom check.

        Parameters
        ----------
        value : object
            Candidate value.

        Returns
        -------
        str or None
            Reason it is invalid, or None.

        """
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if isinstance(v, float) and not math.isfinite(v):
                return f'{self.name} must be finite, got {v}'
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if self.low is not None and v < self.low:
                    return f'{self.name} must be >= {self.low}, got {v}'
                if self.high is not None and v > self.high:
                    return f'{self.name} must be <= {self.high}, got {v}'
        if self.choices is not None and value not in self.choices:
            return f'{self.name} must be one of {", ".join(map(str, self.choices))}, got {value!r}'
        if self.check is not None:
            return self.check(value)
        return None


def declare(node, specs, on_change=None, on_changes=None):
    """
    Declare and validate a node's parameters.

    A set of parameters (``set_parameters`` or ``set_parameters_atomically``)
    is all or nothing: every value of the set is checked against its spec
    first, and the node's own check sees the whole set at once.

    Parameters
    ----------
    node : rclpy.node.Node
        The node.
    specs : sequence of ParamSpec
        Parameters.
    on_change : callable, optional
        Called as ``on_change(name, value)`` for each parameter of a valid
        set, in order; it may raise ``ValueError`` to refuse it (the
        parameters before it in the set have then been applied: use
        ``on_changes`` for atomic sets).
    on_changes : callable, optional
        Called once per valid set as ``on_changes(changes)`` (a dict, name
        to value, in the order given); it must check everything before it
        applies anything, and raise ``ValueError`` to refuse the whole set.

    Returns
    -------
    dict
        Current value of every parameter (``None`` for unset ones).

    Raises
    ------
    ParameterValidationError
        If an initial value is invalid.

    """
    by_name = {s.name: s for s in specs}
    values = {}
    for spec in specs:
        if spec.default is None and spec.kind is not None:
            node.declare_parameter(spec.name, spec.kind, spec.descriptor())
        else:
            node.declare_parameter(spec.name, spec.default, spec.descriptor())
        param = node.get_parameter_or(spec.name, Parameter(spec.name, value=None))
        value = param.value
        if value is not None:
            reason = spec.validate(value)
            if reason:
                raise ParameterValidationError(f'parameter {reason}')
        values[spec.name] = value

    def callback(params):
        changes = {}
        for p in params:
            spec = by_name.get(p.name)
            if spec is None:
                continue
            reason = spec.validate(p.value)
            if reason:
                return SetParametersResult(successful=False, reason=reason)
            changes[p.name] = p.value
        try:
            if on_changes is not None and changes:
                on_changes(changes)
            if on_change is not None:
                for name, value in changes.items():
                    on_change(name, value)
        except ValueError as exc:
            return SetParametersResult(successful=False, reason=str(exc))
        return SetParametersResult(successful=True)

    node.add_on_set_parameters_callback(callback)
    return values
