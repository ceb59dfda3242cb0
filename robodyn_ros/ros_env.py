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
Environment defaults for everything that starts ROS.

DDS stays on the loopback interface unless the user chose otherwise
(``ROS_AUTOMATIC_DISCOVERY_RANGE``); no rclpy import here.
"""

import os


def apply_ros_env_defaults(environ=None):
    """
    Set the ROS environment defaults of robodyn_ros where they are unset.

    Parameters
    ----------
    environ : dict, optional
        Environment to update (default ``os.environ``).

    Returns
    -------
    dict
        The environment.

    """
    env = os.environ if environ is None else environ
    env.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    return env


#: Fast DDS profile for processes that move large messages on one machine: the
#: shared-memory transport with 64 MB segments (the default 512 kB segment holds
#: a few 64 kB fragments at a time, and a 14 MB message then crawls through it),
#: and UDP for everything else.
LARGE_DATA_PROFILE = """<?xml version="1.0" encoding="UTF-8" ?>
<dds xmlns="http://www.eprosima.com">
  <profiles>
    <transport_descriptors>
      <transport_descriptor>
        <transport_id>robodyn_shm</transport_id>
        <type>SHM</type>
        <segment_size>67108864</segment_size>
        <maxMessageSize>33554432</maxMessageSize>
      </transport_descriptor>
      <transport_descriptor>
        <transport_id>robodyn_udp</transport_id>
        <type>UDPv4</type>
      </transport_descriptor>
    </transport_descriptors>
    <participant profile_name="robodyn_large_data" is_default_profile="true">
      <rtps>
        <userTransports>
          <transport_id>robodyn_shm</transport_id>
          <transport_id>robodyn_udp</transport_id>
        </userTransports>
        <useBuiltinTransports>false</useBuiltinTransports>
      </rtps>
    </participant>
  </profiles>
</dds>
"""

#: Variables by which a user configures Fast DDS himself (then nothing is changed).
FASTDDS_USER_SETTINGS = ('FASTDDS_DEFAULT_PROFILES_FILE', 'FASTRTPS_DEFAULT_PROFILES_FILE',
                         'FASTDDS_BUILTIN_TRANSPORTS', 'RMW_FASTRTPS_USE_QOS_FROM_XML')


def _fastdds_unconfigured(env):
    """Tell whether ``env`` runs Fast DDS and leaves its transports to robodyn (bool)."""
    fastdds = ('rmw_fastrtps_cpp', 'rmw_fastrtps_dynamic_cpp')
    return (env.get('RMW_IMPLEMENTATION', 'rmw_fastrtps_cpp') in fastdds
            and not any(env.get(key) for key in FASTDDS_USER_SETTINGS))


def _write_profile(text, name, folder=None):
    """Write a Fast DDS profile once per content; return its path (str)."""
    import hashlib
    import tempfile
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    path = os.path.join(folder or tempfile.gettempdir(), f'robodyn_fastdds_{name}{digest}.xml')
    if not os.path.exists(path):
        tmp = f'{path}.{os.getpid()}'
        with open(tmp, 'w', encoding='utf-8') as fh:
            fh.write(text)
        os.replace(tmp, path)
    return path


def use_large_data_transport(environ=None, folder=None):
    """
    Point Fast DDS at :data:`LARGE_DATA_PROFILE` unless the user configured it.

    Call before ``rclpy.init``. Nothing changes when another middleware is
    chosen (``RMW_IMPLEMENTATION``) or one of :data:`FASTDDS_USER_SETTINGS`
    is set (the namespaces of the multi-host set-up set
    ``FASTDDS_BUILTIN_TRANSPORTS=UDPv4``).

    Parameters
    ----------
    environ : dict, optional
        Environment to update (default ``os.environ``).
    folder : str, optional
        Where the profile file is written (default the temporary folder).

    Returns
    -------
    str or None
        The profile file used, None when nothing was changed.

    """
    env = os.environ if environ is None else environ
    if not _fastdds_unconfigured(env):
        return None
    path = _write_profile(LARGE_DATA_PROFILE, '', folder)
    env['FASTDDS_DEFAULT_PROFILES_FILE'] = path
    return path


#: Fast DDS profile for a graph on one machine whose nodes are killed and
#: started again: every participant takes its data on UDP at 127.0.0.1 only.
#: Under ``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`` rmw_fastrtps adds its own
#: shared-memory and UDP transports to those of any profile, so shared memory
#: cannot be left out there; a participant with its own unicast locator list
#: opens no shared-memory port (measured: no ``fastdds_port*`` file mapped,
#: against two without the profile), so its peers send it everything over UDP.
RESTARTABLE_PROFILE = """<?xml version="1.0" encoding="UTF-8" ?>
<dds xmlns="http://www.eprosima.com">
  <profiles>
    <participant profile_name="robodyn_restartable" is_default_profile="true">
      <rtps>
        <defaultUnicastLocatorList>
          <locator><udpv4><address>127.0.0.1</address></udpv4></locator>
        </defaultUnicastLocatorList>
      </rtps>
    </participant>
  </profiles>
</dds>
"""


def use_restartable_transport(environ=None, folder=None):
    """
    Keep Fast DDS's shared memory out of a graph whose nodes are killed and restarted.

    After a process is killed (SIGKILL) while it uses Fast DDS's shared-memory
    transport, a node started again in its place can match its publishers and
    still receive nothing (eProsima/Fast-DDS#5053, #2811, #5469); over UDP it
    does. Nothing changes when another middleware is chosen or the user
    configured Fast DDS (:data:`FASTDDS_USER_SETTINGS`). Call before
    ``rclpy.init``; child processes inherit the setting.

    Under ``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`` (robodyn's default)
    rmw_fastrtps sets the transports itself and ``FASTDDS_BUILTIN_TRANSPORTS``
    has no effect, so :data:`RESTARTABLE_PROFILE` is used: each participant
    takes its data on UDP at 127.0.0.1 only. With the other ranges the
    built-in transports are set to ``UDPv4``.

    Parameters
    ----------
    environ : dict, optional
        Environment to update (default ``os.environ``).
    folder : str, optional
        Where the profile file is written (default the temporary folder).

    Returns
    -------
    str or None
        ``'profile'`` or ``'builtin'`` (what was set), None when nothing
        was changed.

    """
    env = os.environ if environ is None else environ
    if not _fastdds_unconfigured(env):
        return None
    if env.get('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST') == 'LOCALHOST':
        env['FASTDDS_DEFAULT_PROFILES_FILE'] = _write_profile(RESTARTABLE_PROFILE, 'restartable_',
                                                              folder)
        return 'profile'
    env['FASTDDS_BUILTIN_TRANSPORTS'] = 'UDPv4'
    return 'builtin'
