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
The elements of a URDF, before and while urdf_parser_py reads them.

Two opposite cases:

* **Elements that carry dynamics must be spelled right.** urdf_parser_py
  skips unknown tags with a note, so a misspelled ``<inertai>`` inside
  ``<inertial>`` would leave the link without inertia, silently.
  :func:`check_dynamics_elements` makes an unknown child of ``<inertial>``
  or ``<joint>``, an unknown attribute of ``<mass>``, ``<inertia>`` or the
  inertial ``<origin>``, and an unknown child of ``<link>`` that looks like
  ``<inertial>`` an error naming the tag and the link or joint. Children in
  a known extension namespace (:data:`EXTENSION_NAMESPACES`) give a warning.
* **Elements that do not affect kinematics or dynamics may be malformed.**
  Materials, textures, visuals, collisions, transmissions and gazebo tags
  that urdf_parser_py rejects, and a missing robot name, are ignored with a
  warning by :func:`parse_lenient` (urdf_parser_py's message included).

Warnings are reported as :class:`~robodyn_ros.errors.ModelError` objects to a
``report`` callable, which raises them under strict loading.
"""

import difflib
import os
import re
import xml.etree.ElementTree as ElementTree

from ..errors import DescriptionParseError

#: Namespaces of known URDF extensions (Drake, Gazebo, sdformat, xacro leftovers).
EXTENSION_NAMESPACES = ('http://drake.mit.edu', 'http://gazebosim.org',
                        'http://playerstage.sourceforge.net/gazebo', 'http://sdformat.org',
                        'http://www.ros.org/wiki/xacro')

#: Children of ``<inertial>`` and their attributes.
INERTIAL_ELEMENTS = {'origin': ('xyz', 'rpy'), 'mass': ('value',),
                     'inertia': ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')}
#: Children of ``<joint>`` (URDF specification).
JOINT_ELEMENTS = ('origin', 'parent', 'child', 'axis', 'calibration', 'dynamics', 'limit',
                  'safety_controller', 'mimic')
#: Elements that do not affect kinematics or dynamics, by the path segment that names them.
IGNORABLE = ('visual', 'collision', 'material', 'transmission', 'gazebo')

_SEGMENT = re.compile(r'/([A-Za-z_][\w.:-]*)(?:\[[^\]]*\])?')


def _namespace(tag):
    """Namespace URI of a ``{uri}local`` tag or attribute, else None."""
    return tag[1:].split('}', 1)[0] if tag.startswith('{') else None


def _known_extension(uri):
    return any(uri.startswith(prefix) for prefix in EXTENSION_NAMESPACES)


def _unknown(name, where, owner, known, source, report, attribute=False):
    """Report an unknown tag or attribute: an error, a warning for a known extension."""
    uri = _namespace(name)
    shown = repr(name) if attribute else f'<{name}>'
    what = f'attribute {shown} of {where}' if attribute else f'element {shown} in {where}'
    if uri is not None and _known_extension(uri):
        report(DescriptionParseError(f'extension {what} ignored', source, owner))
        return
    raise DescriptionParseError(f'unknown {what} (known: {", ".join(known)})', source, owner)


def check_dynamics_elements(root, source, report):
    """
    Refuse unknown tags where urdf_parser_py would drop dynamics silently.

    Parameters
    ----------
    root : xml.etree.ElementTree.Element
        The ``<robot>`` element.
    source : str
        File named in messages.
    report : callable
        Called with a :class:`ModelError` for each warning.

    Raises
    ------
    DescriptionParseError
        Naming the tag and the link or joint.

    """
    for link in root.iter('link'):
        owner = f'link {link.get("name")!r}'
        for child in link:
            if not isinstance(child.tag, str):
                continue
            if child.tag == 'inertial':
                _check_inertial(child, owner, source, report)
            elif _namespace(child.tag) is None and child.tag not in ('visual', 'collision') \
                    and difflib.get_close_matches(child.tag, ['inertial'], cutoff=0.75):
                raise DescriptionParseError(
                    f'unknown element <{child.tag}> (did you mean <inertial>? the link '
                    'would have no mass)', source, owner)
    for joint in root.iter('joint'):
        if joint.get('type') is None:  # a transmission's <joint name=...>
            continue
        owner = f'joint {joint.get("name")!r}'
        for child in joint:
            if isinstance(child.tag, str) and child.tag not in JOINT_ELEMENTS:
                _unknown(child.tag, '<joint>', owner, JOINT_ELEMENTS, source, report)


def _check_inertial(inertial, owner, source, report):
    for child in inertial:
        if not isinstance(child.tag, str):
            continue
        if child.tag not in INERTIAL_ELEMENTS:
            _unknown(child.tag, '<inertial>', owner, INERTIAL_ELEMENTS, source, report)
            continue
        allowed = INERTIAL_ELEMENTS[child.tag]
        for attribute in child.attrib:
            if attribute not in allowed:
                _unknown(attribute, f'<{child.tag}> in <inertial>', owner, allowed, source,
                         report, attribute=True)


def parse_lenient(text, source, report):
    """
    Parse URDF text with urdf_parser_py, ignoring what does not affect dynamics.

    Parameters
    ----------
    text : str
        The URDF.
    source : str
        File named in messages (its stem names a robot without a name).
    report : callable
        Called with a :class:`ModelError` for each ignored element and a
        missing robot name (strict loading raises it).

    Returns
    -------
    tuple of (urdf_parser_py.urdf.URDF, list of str, xml.etree.ElementTree.Element)
        The parsed robot, urdf_parser_py's notes and the element tree.

    Raises
    ------
    DescriptionParseError
        If the XML is malformed or urdf_parser_py rejects an element that
        matters (links, joints, inertials).

    """
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise DescriptionParseError(f'invalid XML: {exc}', source) from None
    if root.tag != 'robot':
        raise DescriptionParseError(f'root element is <{root.tag}>, not <robot>', source)
    check_dynamics_elements(root, source, report)
    changed = False
    if not root.get('name'):
        name = 'robot'
        if source and source != '<string>':
            name = os.path.basename(source).split('.')[0] or name
        report(DescriptionParseError(f'the robot has no name; named {name!r}', source))
        root.set('name', name)
        changed = True
    stripped = set()
    while True:
        try:
            robot, notes = _parse(ElementTree.tostring(root, encoding='unicode')
                                  if changed else text)
            return robot, notes, root
        except DescriptionParseError as exc:
            kind = _ignorable_kind(str(exc))
            if kind is None or kind in stripped:
                raise DescriptionParseError(str(exc), source) from None
            report(DescriptionParseError(
                f'ignored the <{kind}> elements (they do not affect kinematics or '
                f'dynamics): {exc}', source))
            _strip(root, kind)
            stripped.add(kind)
            changed = True


def _parse(text):
    from urdf_parser_py import urdf as urdf_mod
    from urdf_parser_py.xml_reflection import core
    notes = []
    previous = core.on_error
    core.on_error = notes.append
    try:
        robot = urdf_mod.URDF.from_xml_string(text)
    except Exception as exc:  # urdf_parser_py raises ParseError, ValueError, XML errors
        msg = ' '.join(str(exc).split())
        raise DescriptionParseError(f'invalid URDF: {msg}') from exc
    finally:
        core.on_error = previous
    return robot, [' '.join(str(n).split()) for n in notes]


def _ignorable_kind(message):
    """Return the ignorable element kind on the error path of urdf_parser_py's message."""
    match = re.search(r'ParseError in (\S+?):', message)
    if match is None:
        return None
    for tag in _SEGMENT.findall(match.group(1))[1:]:
        if tag in IGNORABLE:
            return tag
    return None


def _strip(root, kind):
    """Remove every element of an ignorable kind where URDF places it."""
    parents = [root] if kind in ('material', 'transmission', 'gazebo') else list(root.iter('link'))
    for parent in parents:
        for child in parent.findall(kind):
            parent.remove(child)
