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
``robodyn bench dynamics``: our customized kernels side by side with Pinocchio.

On the same random inputs, in one run, interleaved, medians over repeats:

* one inverse-dynamics call from Python (PUMA 560 and UR5): our C kernel
  with friction off (Pinocchio has no friction; armature on both sides) and
  on, Pinocchio ``rnea``, and the numpy reference ``rne.inverse_dynamics``;
* a batch of states: our batch kernel split over 1 and 2 Python threads vs
  ``pinocchio.rneaInParallel`` with a ``ModelPool`` at 1 and 2 threads
  (column batches, nv x N), the vectorised numpy reference, and a machine
  reference (sha256 over 1 and 2 threads, which releases the GIL) that shows
  the speed-up the shared machine allows at that moment;
* one forward-dynamics call: ours with friction off
  (``forward_dynamics_rigid``, the inverse of ``inverse_dynamics_rigid``)
  vs ``aba``, and with friction on (``forward_dynamics``, the inverse of
  ``inverse_dynamics``; for the PUMA 560 with its load-dependent friction
  a solver) for information; the mass matrix vs ``crba``;
* a profile of the single call: argument checks plus output allocation
  (an entry point that runs no kernel) and the kernel alone (batch time per
  state);
* the payload and friction kernels beside the forms they replace: the
  torque with a payload in one call (``inverse_dynamics_payload``) against
  ``base + m (unit - base_rigid)`` (three calls and the array arithmetic, as
  the payload model had it), the payload regressor ``payload_torque``
  against ``unit_rigid - base_rigid``, and the ``friction`` kernel against
  ``full - rigid``; each pair is first checked to give the same torques.
"""

import hashlib
import os

import numpy as np

from .timing import interleaved, phase, time_calls
from ..dynamics.codegen import kernels
from ..dynamics.codegen.threads import BatchRunner
from ..dynamics.rne import inverse_dynamics as np_inverse_dynamics
from ..model import load_robot

#: Goals of the issue: single call <= 1.0x rnea, batch >= 2x rneaInParallel,
#: 1 -> 2 threads >= 1.8x, forward dynamics (friction off, as aba) <= 1.5x aba.
GOALS = {'single': 1.0, 'batch': 2.0, 'speedup': 1.8, 'forward': 1.5}


def bench_models():
    """
    Load the robots of the bench: PUMA 560 (library) and UR5.

    Returns
    -------
    list of (str, RobotModel)
        Label and model; the PUMA falls back to the seed-004 geometry when
        the library robot is not available.

    """
    from ..model import library
    out = []
    if 'puma560' in library.names():
        try:
            out.append(('puma560', load_robot('puma560')))
        except Exception:  # library robot not merged yet
            from ..reproductions.operation_counts import puma_geometry
            out.append(('puma560 (seed 004 geometry)', puma_geometry()))
    out.append(('ur5', load_robot('ur5')))
    return out


def _inputs(model, count, rng):
    q = np.array([model.random_configuration(rng) for _ in range(count)])
    qd = rng.uniform(-1.0, 1.0, (count, model.n))
    qdd = rng.uniform(-2.0, 2.0, (count, model.n))
    return q, qd, qdd


def single_call(model, bridge, k, repeat, target):
    """
    Time one call of each implementation on the same state.

    Parameters
    ----------
    model : RobotModel
        The robot.
    bridge : PinocchioBridge
        Pinocchio twin (armature copied).
    k : Kernels
        Our compiled kernels.
    repeat : int
        Rounds.
    target : float
        Duration of one timing [s].

    Returns
    -------
    dict
        Name to timing (seconds per call).

    """
    import pinocchio as pin
    rng = np.random.default_rng(1)
    q, qd, qdd = (x[0].copy() for x in _inputs(model, 1, rng))
    tau = k.inverse_dynamics_rigid(q, qd, qdd)
    tau_f = k.inverse_dynamics(q, qd, qdd)
    pm, pd = bridge.pin_model, bridge.pin_data
    pq, pv, pa, pt = bridge.q(q), bridge.v(qd), bridge.v(qdd), bridge.v(tau)
    out = np.empty(model.n)
    env = {'f': None, 'q': q, 'v': qd, 'a': qdd, 't': tau, 'tf': tau_f, 'o': out,
           'model': model,
           'pm': pm, 'pd': pd, 'pq': pq, 'pv': pv, 'pa': pa, 'pt': pt}

    def case(stmt, func):
        return stmt, dict(env, f=func)

    cases = {
        'pinocchio rnea': case('f(pm, pd, pq, pv, pa)', pin.rnea),
        'ours, friction off': case('f(q, v, a)', k.inverse_dynamics_rigid),
        'ours, friction off, out=': case('f(q, v, a, o)', k.inverse_dynamics_rigid),
        'ours, friction on': case('f(q, v, a)', k.inverse_dynamics),
        'ours: argument checks + output only': case('f(q, v, a)', k.module.call_overhead),
        'pinocchio aba': case('f(pm, pd, pq, pv, pt)', pin.aba),
        'ours forward dynamics, friction off': case('f(q, v, t)', k.forward_dynamics_rigid),
        'ours forward dynamics, friction on': case('f(q, v, tf)', k.forward_dynamics),
        'pinocchio crba': case('f(pm, pd, pq)', pin.crba),
        'ours mass matrix': case('f(q)', k.mass_matrix),
    }
    res = interleaved(cases, repeat, target)
    slow = {'numpy rne, friction on': case('f(model, q, v, a)', np_inverse_dynamics),
            'numpy rne, friction off': case('f(model, q, v, a, friction=False)',
                                            np_inverse_dynamics)}
    res.update(interleaved(slow, max(3, repeat // 4), target))
    return res


def payload_and_friction(model, k, repeat, target):
    """
    Time the payload and friction kernels beside the forms they replace.

    Parameters
    ----------
    model : RobotModel
        The robot.
    k : Kernels
        Our compiled kernels (payload at ``k.payload_frame``).
    repeat : int
        Rounds.
    target : float
        Duration of one timing [s].

    Returns
    -------
    dict
        Name to timing (seconds per call), and under ``'max_difference'``
        the largest difference [N m] between the old and new form of each
        quantity.

    """
    rng = np.random.default_rng(4)
    q, qd, qdd = (x[0].copy() for x in _inputs(model, 1, rng))
    mass, com = 1.7, np.array([0.01, -0.02, 0.05])
    payload = np.concatenate(([mass], com))
    unit = kernels(model.with_payload(1.0, com, frame=k.payload_frame), backend='c')
    env = {'q': q, 'v': qd, 'a': qdd, 'm': mass, 'c': com, 'p': payload,
           'f': k.inverse_dynamics, 'r': k.inverse_dynamics_rigid,
           'u': unit.inverse_dynamics_rigid, 'idp': k.inverse_dynamics_payload,
           'ym': k.payload_torque, 'fr': k.friction}
    rigid = k.inverse_dynamics_rigid(q, qd, qdd)
    unit_rigid = unit.inverse_dynamics_rigid(q, qd, qdd)
    full = k.inverse_dynamics(q, qd, qdd)
    rows = (  # quantity, (name, statement, value) of the old form, then of the new one
        ('payload torque',
         ('payload, 3 calls: id + m (unit rigid - rigid)',
          'f(q, v, a) + m * (u(q, v, a) - r(q, v, a))', full + mass * (unit_rigid - rigid)),
         ('payload, 1 call: inverse_dynamics_payload', 'idp(q, v, a, p)',
          k.inverse_dynamics_payload(q, qd, qdd, payload))),
        ('payload regressor',
         ('regressor, 2 calls: unit rigid - rigid', 'u(q, v, a) - r(q, v, a)',
          unit_rigid - rigid),
         ('regressor, 1 call: payload_torque', 'ym(q, v, a, c)',
          k.payload_torque(q, qd, qdd, com))),
        ('friction',
         ('friction, 2 calls: id - rigid', 'f(q, v, a) - r(q, v, a)', full - rigid),
         ('friction, 1 call: friction', 'fr(q, v, a)', k.friction(q, qd, qdd))))
    cases, diff = {}, {}
    for key, (old_name, old_stmt, old), (new_name, new_stmt, new) in rows:
        diff[key] = float(np.abs(old - new).max())
        cases[old_name] = (old_stmt, env)
        cases[new_name] = (new_stmt, env)
    res = interleaved(cases, repeat, target)
    res['max_difference'] = diff
    return res


def batch(model, bridge, k, count, repeat):
    """
    Time a batch of states: ours and ``rneaInParallel`` at 1 and 2 threads.

    Parameters
    ----------
    model : RobotModel
        The robot.
    bridge : PinocchioBridge
        Pinocchio twin.
    k : Kernels
        Our compiled kernels.
    count : int
        Number of states N.
    repeat : int
        Rounds.

    Returns
    -------
    dict
        Name to timing (seconds per batch); the batch size under ``'N'``.

    """
    import pinocchio as pin
    rng = np.random.default_rng(2)
    q, qd, qdd = _inputs(model, count, rng)
    out = np.empty((count, model.n))
    funcs = {}
    runners = {t: BatchRunner(t) for t in (1, 2)}
    for t, runner in runners.items():
        funcs[f'ours, {t} thread{"s" if t > 1 else ""}'] = (
            lambda r=runner: r.run(k.inverse_dynamics_rigid_batch, (q, qd, qdd), out))
    if hasattr(pin, 'rneaInParallel') and hasattr(pin, 'ModelPool'):
        pool = pin.ModelPool(bridge.pin_model, 2)
        pq = np.asfortranarray(np.array([bridge.q(x) for x in q]).T)
        pv = np.asfortranarray(np.array([bridge.v(x) for x in qd]).T)
        pa = np.asfortranarray(np.array([bridge.v(x) for x in qdd]).T)
        ptau = np.asfortranarray(np.empty((bridge.pin_model.nv, count)))
        for t in (1, 2):
            funcs[f'pinocchio rneaInParallel, {t} thread{"s" if t > 1 else ""}'] = (
                lambda t=t: pin.rneaInParallel(t, pool, pq, pv, pa, ptau))
    data = np.random.default_rng(3).integers(0, 256, 160 * count, dtype=np.uint8)
    for t, runner in runners.items():
        funcs[_ref_key(count, t)] = lambda r=runner: r.run(_hash_rows, (data,), None)
    res = time_calls(funcs, repeat)
    small = min(count, 2000)
    res['numpy rne (vectorised), friction off'] = {
        key: v * count / small if key != 'samples' else v
        for key, v in time_calls({'x': lambda: np_inverse_dynamics(
            model, q[:small], qd[:small], qdd[:small], friction=False)},
            max(3, repeat // 3))['x'].items()}
    res['profile'] = thread_profile(runners[2], k.inverse_dynamics_rigid_batch, (q, qd, qdd),
                                    out, repeat)
    for runner in runners.values():
        runner.close()
    return res


def _hash_rows(data, out, start, stop):
    # hashlib releases the GIL on large buffers: a plain compute-bound reference.
    hashlib.sha256(data[start:stop]).digest()


def thread_profile(runner, func, arrays, out, repeat):
    """
    Time each thread's share of a threaded batch and the wall time around them.

    Parameters
    ----------
    runner : BatchRunner
        The thread pool.
    func : callable
        Batch entry point.
    arrays : sequence of numpy.ndarray
        Inputs.
    out : numpy.ndarray
        Output.
    repeat : int
        Rounds.

    Returns
    -------
    dict
        Medians [s]: ``wall``, ``chunks`` (per thread, time inside kernel
        calls, sorted) and ``outside`` (wall minus the busiest thread:
        dispatch, argument checks and waiting).

    """
    import statistics
    import threading
    import time
    lock = threading.Lock()
    walls, busy = [], []

    def timed(*args):
        t0 = time.perf_counter()
        func(*args)
        with lock:
            current[threading.get_ident()] = (current.get(threading.get_ident(), 0.0)
                                              + time.perf_counter() - t0)

    for _ in range(max(3, repeat)):
        current = {}
        t0 = time.perf_counter()
        runner.run(timed, arrays, out)
        walls.append(time.perf_counter() - t0)
        busy.append(sorted(current.values()) + [0.0] * (runner.threads - len(current)))
    per_chunk = [statistics.median(c[i] for c in busy) for i in range(runner.threads)]
    outside = statistics.median(w - max(c) for w, c in zip(walls, busy))
    return {'wall': statistics.median(walls), 'chunks': per_chunk, 'outside': outside}


def run(quick=False, states=None):
    """
    Run the whole bench.

    Parameters
    ----------
    quick : bool
        Fewer repeats and a smaller batch (for a smoke run).
    states : int, optional
        Batch size (default 100000, or 20000 when quick).

    Returns
    -------
    dict
        ``robots``: per robot the single-call and batch timings and ratios;
        ``goals``; ``settings``.

    """
    from ..pinocchio_bridge import PinocchioBridge
    count = int(states) if states else (20_000 if quick else 100_000)
    repeat_single = 5 if quick else 21
    repeat_batch = 3 if quick else 11
    target = 0.005 if quick else 0.02
    out = {'settings': {'batch_states': count, 'repeat_single': repeat_single,
                        'repeat_batch': repeat_batch, 'timing_target_s': target,
                        'cpus': os.cpu_count(), 'load_before': _load()},
           'goals': GOALS, 'robots': {}}
    for label, model in bench_models():
        phase(f'{label}: single calls, a batch of {count} states, the payload and friction '
              'kernels')
        k = kernels(model, backend='c')
        bridge = PinocchioBridge(model)
        single = single_call(model, bridge, k, repeat_single, target)
        bat = batch(model, bridge, k, count, repeat_batch)
        new = payload_and_friction(model, k, repeat_single, target)
        diff = new.pop('max_difference')
        out['robots'][label] = {'dof': model.n, 'single': _strip(single),
                                'batch': _strip(bat), 'ratios': ratios(single, bat, count),
                                'kernels': _strip(new), 'kernel_ratios': kernel_ratios(new),
                                'max_difference': diff}
    out['settings']['load_after'] = _load()
    return out


def _load():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _strip(res):
    return {k: v if k == 'profile' else {'median': v['median'], 'min': v['min']}
            for k, v in res.items()}


def _ref_key(count, threads):
    return f'machine reference: sha256 of {160 * count // 10**6} MB, {threads} thread(s)'


def ratios(single, bat, count):
    """
    Ratios against Pinocchio and the thread speed-up.

    Parameters
    ----------
    single, bat : dict
        Timings from :func:`single_call` and :func:`batch`.
    count : int
        Batch size.

    Returns
    -------
    dict
        ``single_off``/``single_on`` (ours / rnea time), ``forward`` (ours,
        friction off / aba), ``forward_on`` (ours, friction on / aba),
        ``mass`` (ours / crba), ``batch_1``/``batch_2`` (our
        throughput / Pinocchio's), ``speedup`` (ours 1 -> 2 threads),
        ``pin_speedup``, ``machine_speedup`` (sha256 1 -> 2 threads, what the
        machine allows at that moment), ``overhead_us`` and ``kernel_us``.

    """
    med = {k: v['median'] for k, v in single.items()}
    b = {k: v['median'] for k, v in bat.items() if k != 'profile'}
    out = {'single_off': med['ours, friction off'] / med['pinocchio rnea'],
           'single_on': med['ours, friction on'] / med['pinocchio rnea'],
           'forward': med['ours forward dynamics, friction off'] / med['pinocchio aba'],
           'forward_on': med['ours forward dynamics, friction on'] / med['pinocchio aba'],
           'mass': med['ours mass matrix'] / med['pinocchio crba'],
           'speedup': b['ours, 1 thread'] / b['ours, 2 threads'],
           'machine_speedup': b[_ref_key(count, 1)] / b[_ref_key(count, 2)],
           'overhead_us': med['ours: argument checks + output only'] * 1e6,
           'kernel_us': b['ours, 1 thread'] / count * 1e6}
    if 'pinocchio rneaInParallel, 1 thread' in b:
        for t, key in ((1, '1 thread'), (2, '2 threads')):
            out[f'batch_{t}'] = b[f'pinocchio rneaInParallel, {key}'] / b[f'ours, {key}']
        out['pin_speedup'] = (b['pinocchio rneaInParallel, 1 thread']
                              / b['pinocchio rneaInParallel, 2 threads'])
    return out


def kernel_ratios(res):
    """
    Ratios of the one-call kernels to the forms they replace.

    Parameters
    ----------
    res : dict
        Timings from :func:`payload_and_friction`.

    Returns
    -------
    dict
        ``payload``, ``regressor``, ``friction``: new time / old time
        (medians; below 1 is faster).

    """
    med = {k: v['median'] for k, v in res.items() if k != 'max_difference'}
    return {'payload': (med['payload, 1 call: inverse_dynamics_payload']
                        / med['payload, 3 calls: id + m (unit rigid - rigid)']),
            'regressor': (med['regressor, 1 call: payload_torque']
                          / med['regressor, 2 calls: unit rigid - rigid']),
            'friction': (med['friction, 1 call: friction']
                         / med['friction, 2 calls: id - rigid'])}
