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
Exception hierarchy of robodyn_ros.

Every error the package raises derives from :class:`RobodynError`. Errors
raised while building or validating a model carry the source file, the link
or joint, the field and the offending value, so that a one-line message
points straight at the problem. Descriptions that load but break a rule of
physical consistency (or carry elements we ignore) give a
:class:`ModelWarning` instead; strict loading turns those into errors.
"""


class RobodynError(Exception):
    """Root of every robodyn_ros error."""


class ModelWarning(UserWarning):
    """
    A robot description loads, but breaks a rule or carries ignored elements.

    Issued (with :func:`warnings.warn`) once per problem by the loaders;
    the same texts are in ``RobotModel.warnings``. Strict loading
    (``strict=True``, ``--strict``) raises the :class:`ModelError` instead.
    """


class ModelError(RobodynError, ValueError):
    """
    A robot description is invalid.

    Parameters
    ----------
    reason : str
        What is wrong, in words.
    source : str, optional
        File (or other origin) of the description.
    element : str, optional
        Link or joint concerned, e.g. ``"joint 'elbow'"``.
    field : str, optional
        Field concerned, e.g. ``'mass'``.
    value : object, optional
        Offending value.

    """

    def __init__(self, reason, source=None, element=None, field=None, value=None):
        self.reason = reason
        self.source = source
        self.element = element
        self.field = field
        self.value = value
        super().__init__(self._compose())

    def _compose(self):
        parts = []
        if self.source:
            parts.append(str(self.source))
        if self.element:
            parts.append(str(self.element))
        if self.field:
            parts.append(f'field {self.field!r}')
        if self.value is not None:
            parts.append(f'value {self.value!r}')
        parts.append(self.reason)
        return ': '.join(parts)


class DescriptionParseError(ModelError):
    """The URDF, xacro, YAML or DH text could not be parsed."""


class MissingInertialError(ModelError):
    """A moving link has no inertial data."""


class NonPositiveMassError(ModelError):
    """A mass is negative, or a moving link has no mass at all."""


class InvalidInertiaError(ModelError):
    """An inertia tensor is not symmetric positive (semi)definite or breaks the triangle rule."""


class NonFiniteValueError(ModelError):
    """A NaN or infinite number appears in the description."""


class UnsupportedJointError(ModelError):
    """A joint type that the model does not support (floating, planar, ...)."""


class TopologyError(ModelError):
    """The kinematic graph is not a single tree (several roots, loops, dangling joints)."""


class UnknownNameError(ModelError, KeyError):
    """A joint, link or frame name that the model does not have."""

    def __str__(self):
        return ModelError.__str__(self)


class ParameterError(ModelError):
    """A parameter file (YAML) does not match the schema."""


class InputError(RobodynError, ValueError):
    """
    A numerical argument has the wrong shape or a non-finite value.

    Parameters
    ----------
    argument : str
        Name of the argument, e.g. ``'q'``.
    reason : str
        What is wrong with it.

    """

    def __init__(self, argument, reason):
        self.argument = argument
        self.reason = reason
        super().__init__(f'{argument}: {reason}')


class UnknownRobotError(RobodynError, LookupError):
    """A robot name that is neither in the library nor a readable file."""

    def __init__(self, name, known):
        self.name = name
        self.known = tuple(known)
        super().__init__(
            f'unknown robot {name!r}: not a library robot ({", ".join(self.known)}) '
            'and not an existing URDF/xacro file')
