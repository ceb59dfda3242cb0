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
Topics, QoS and messages of the parallel-dynamics service, its workers and its clients.

Standard message types only; the data messages are **packed**
``trajectory_msgs/JointTrajectory`` (one point holding N states row after
row, read and written in serialized form by :mod:`.dynamics_cdr`):

* ``dynamics/request``: header (stamp and frame_id) = the request id;
  ``joint_names`` = every model joint, any order; ``positions`` N x n,
  ``velocities`` and ``accelerations`` N x n or empty (zero).
* ``dynamics/response``: the same header and joint names, ``effort`` N x n
  in the request's joint order. **An error has no points**; its
  ``joint_names`` are ``[code, message, key=value ...]`` with a code of
  :data:`ERROR_CODES` (``busy`` carries ``queue_depth`` and
  ``queued_points``). Every request gets exactly one response.
* A **probe** is a request with no points and no joint names. The service
  answers it with code :data:`READY` (not an error, not counted) at once: a
  client counts the service reachable only when its own probe came back,
  since seeing the answers' writer does not mean that writer sees the
  client's reader yet (discovery runs each way on its own, and an answer
  sent before the match is lost).
* ``dynamics/info`` (std_msgs/String, JSON, latched): robot, model
  fingerprint, joints, friction, scheme and limits of the service.
* ``dynamics/workers`` (String, JSON): heartbeats of worker processes.
* ``<worker>/chunk_request`` and ``dynamics/chunk_response``: chunks of
  requests between the service and its workers, packed the same way, in
  model joint order; the frame_id carries ``<token>:<chunk>:<friction 0|1>``.

The data topics are reliable with **keep-all** history: a reader that
falls behind slows its writers down (DDS flow control) instead of
overwriting unread requests, so nothing is dropped silently.
"""

import json

import numpy as np
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from .dynamics_cdr import encode_error, read_header

REQUEST_TOPIC = 'dynamics/request'
RESPONSE_TOPIC = 'dynamics/response'
INFO_TOPIC = 'dynamics/info'
WORKERS_TOPIC = 'dynamics/workers'
CHUNK_RESPONSE_TOPIC = 'dynamics/chunk_response'
#: Worker's private chunk topic (``~/chunk_request``).
CHUNK_REQUEST_SUFFIX = 'chunk_request'

#: Requests, responses and chunks: reliable, keep all (flow control, no overwriting).
DATA_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE,
                      history=HistoryPolicy.KEEP_ALL)
#: The service's description: latched.
INFO_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL)
#: Heartbeat period of a worker [s] and silence after which it counts as lost [s].
HEARTBEAT_PERIOD = 0.5
WORKER_LOST_AFTER = 2.0

#: Error codes of a response with no points.
#: ``invalid``: malformed request (the message says what); ``too_large``:
#: more points than ``max_points``, refused from the serialized size;
#: ``busy``: the queue is full, send again later; ``failed``: the
#: computation failed.
ERROR_CODES = ('invalid', 'too_large', 'busy', 'failed')
#: Code of the answer to a probe (a request with no points and no joint names).
READY = 'ready'
#: Token prefix of a worker probe's chunk id (request tokens are hexadecimal).
PROBE_TOKEN = 'probe'


def format_id(frame_id, sec, nanosec):
    """
    Identify a request by its header.

    Parameters
    ----------
    frame_id : str
        Header frame id.
    sec, nanosec : int
        Header stamp.

    Returns
    -------
    str
        ``<frame_id>@<sec>.<nanosec>``.

    """
    return f'{frame_id}@{sec}.{nanosec:09d}'


def request_id(data):
    """
    Identify a serialized request or response by its header.

    Parameters
    ----------
    data : bytes
        The serialized message.

    Returns
    -------
    str
        See :func:`format_id`.

    Raises
    ------
    ValueError
        If the header cannot be read.

    """
    sec, nanosec, frame_id, _ = read_header(data)
    return format_id(frame_id, sec, nanosec)


def is_probe(msg):
    """
    Tell whether a decoded request is a probe.

    Parameters
    ----------
    msg : PackedTrajectory
        A decoded request.

    Returns
    -------
    bool
        True when it has no points and no joint names.

    """
    return msg.points == 0 and not msg.joint_names


def parse_error(msg):
    """
    Read the error of a response with no points.

    Parameters
    ----------
    msg : PackedTrajectory
        A decoded error response.

    Returns
    -------
    tuple
        ``(code, message, details)``; ``details`` maps keys to strings.

    """
    names = list(msg.joint_names)
    code = names[0] if names else 'failed'
    text = names[1] if len(names) > 1 else ''
    details = dict(n.split('=', 1) for n in names[2:] if '=' in n)
    return code, text, details


def chunk_id(token, index, friction):
    """
    Build a chunk's id.

    Parameters
    ----------
    token : str
        Identifies the request inside the service.
    index : int
        Chunk number.
    friction : bool
        Include friction.

    Returns
    -------
    str
        ``<token>:<chunk>:<friction>``.

    """
    return f'{token}:{int(index)}:{int(bool(friction))}'


def ready_answer(sec, nanosec, frame_id, message='ready'):
    """
    Serialize the answer to a probe: code :data:`READY`, not an error, not counted.

    Parameters
    ----------
    sec, nanosec : int
        The probe's header stamp.
    frame_id : str
        The probe's frame id.
    message : str
        Who answers.

    Returns
    -------
    bytes
        The serialized answer.

    """
    return encode_error(sec, nanosec, frame_id, READY, message)


def worker_probe_id(worker):
    """
    Build the chunk id of a probe sent to a worker.

    A worker is used only once the answer to such a probe came back: the
    node's chunk writer seeing the worker's reader does not mean the reader
    sees the writer yet, and a chunk sent before that match arrives only
    with the writer's next reliability heartbeat (seconds), past the
    ``worker_timeout``.

    Parameters
    ----------
    worker : str
        The worker's fully qualified node name.

    Returns
    -------
    str
        ``probe<worker>:0:0``.

    """
    return chunk_id(PROBE_TOKEN + worker, 0, False)


def probed_worker(token):
    """
    Give the worker a probe's token names (None for a request's token).

    Parameters
    ----------
    token : str
        The token of a chunk id (:func:`parse_chunk_id`).

    Returns
    -------
    str or None
        The worker's fully qualified node name.

    """
    return token[len(PROBE_TOKEN):] if token.startswith(PROBE_TOKEN + '/') else None


def parse_chunk_id(frame_id):
    """
    Read a chunk's id.

    Parameters
    ----------
    frame_id : str
        ``<token>:<chunk>:<friction>``.

    Returns
    -------
    tuple
        ``(token, index, friction)``.

    Raises
    ------
    ValueError
        If it is malformed.

    """
    parts = frame_id.split(':')
    if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in ('0', '1'):
        raise ValueError(f'malformed chunk id {frame_id!r}')
    return parts[0], int(parts[1]), parts[2] == '1'


def json_msg(data):
    """
    Wrap a dict as a std_msgs/String of JSON.

    Parameters
    ----------
    data : dict
        Content.

    Returns
    -------
    String
        The message.

    """
    return String(data=json.dumps(data, sort_keys=True))


def parse_json(msg):
    """
    Read a std_msgs/String of JSON.

    Parameters
    ----------
    msg : String
        The message.

    Returns
    -------
    dict or None
        The content, None when it is not a JSON object.

    """
    try:
        data = json.loads(msg.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def request_states(msg, joint_names):
    """
    Read the states of a decoded request in the model's joint order.

    Parameters
    ----------
    msg : PackedTrajectory
        The decoded request.
    joint_names : sequence of str
        The model's joints (every one must be in the request, once).

    Returns
    -------
    tuple
        ``(q, qd, qdd, order)``: (N, n) arrays in model order (views of the
        message where its order is the model's) and the model index of each
        request column (to answer in request order).

    Raises
    ------
    ValueError
        Unknown, missing or duplicate joints, no positions.

    """
    names = list(msg.joint_names)
    model = list(joint_names)
    unknown = [j for j in names if j not in model]
    if unknown:
        raise ValueError(f'unknown joints {", ".join(unknown)} (the model has '
                         f'{", ".join(model)})')
    missing = [j for j in model if j not in names]
    if missing or len(names) != len(model):
        raise ValueError(f'the request lacks joints {", ".join(missing)} or repeats one: every '
                         f'model joint once ({", ".join(model)})')
    if msg.positions is None:
        raise ValueError('the request has no positions')
    order = np.array([model.index(j) for j in names], dtype=int)
    take = np.argsort(order)
    identity = bool(np.all(order == np.arange(len(model))))
    out = []
    for arr in (msg.positions, msg.velocities, msg.accelerations):
        if arr is None:
            out.append(np.zeros(msg.positions.shape))
        else:
            out.append(arr if identity else np.ascontiguousarray(arr[:, take]))
    return out[0], out[1], out[2], order
