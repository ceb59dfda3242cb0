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


"""The processes of ``robodyn bench publish-stall``: the publisher and its subscribers."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np

#: This module, as the subscribers run it.
SELF = 'robodyn_ros.nodes.stall_probe'


def _subscriber():
    import rclpy
    from sensor_msgs.msg import JointState
    rclpy.init()
    node = rclpy.create_node(f'stall_subscriber_{os.getpid()}')
    node.create_subscription(JointState, 'joint_states', lambda msg: None, 10)
    rclpy.spin(node)


def _measure(mode, seconds, spawn_period):
    """Run one mode in this process; return its gap statistics (dict)."""
    import rclpy
    from sensor_msgs.msg import JointState
    from .gil_free_publisher import GilFreePublisher
    rclpy.init()
    node = rclpy.create_node('stall_publisher')
    pub = node.create_publisher(JointState, 'joint_states', 10)
    writer = GilFreePublisher(pub) if mode == 'gil_free' else pub
    msg = JointState(name=[f'joint{i + 1}' for i in range(6)], position=[0.0] * 6)
    stop, gaps = threading.Event(), []

    def publish():
        while not stop.is_set():
            writer.publish(msg)
            time.sleep(0.001)

    def loop():
        last = time.perf_counter()
        while not stop.is_set():
            time.sleep(0.0005)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now
    threads = [threading.Thread(target=f, daemon=True) for f in (publish, loop)]
    for t in threads:
        t.start()
    subs, end, matched, spawned = [], time.monotonic() + seconds, 0, 0
    try:
        while time.monotonic() < end:
            spawned += 1
            subs.append(subprocess.Popen([sys.executable, '-m', SELF, 'subscriber'],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wake = time.monotonic() + spawn_period
            while time.monotonic() < wake:    # a subscriber may match and die within a period
                matched = max(matched, pub.get_subscription_count())
                time.sleep(0.05)
            if len(subs) > 2:
                victim = subs.pop(0)
                victim.send_signal(signal.SIGKILL)
                victim.wait()
    finally:
        stop.set()
        for t in threads:
            t.join(2.0)
        for p in subs:
            p.kill()
            p.wait()
    g = np.array(gaps) * 1e3
    return {'mode': mode, 'cycles': int(g.size), 'gap_p99_ms': float(np.percentile(g, 99)),
            'gap_max_ms': float(g.max()), 'over_20ms': int((g > 20.0).sum()),
            'over_100ms': int((g > 100.0).sum()), 'subscribers_started': spawned,
            'most_matched': matched}


if __name__ == '__main__':
    if sys.argv[1] == 'subscriber':
        _subscriber()
    else:
        print(json.dumps(_measure(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]))))
