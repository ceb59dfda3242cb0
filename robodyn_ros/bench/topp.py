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
Time-optimal parameterization against TOPP-RA (the ``toppra`` package, optional).

Same PUMA 560 ``via_points`` paths, same grid (``grid`` points), same
velocity, acceleration and torque limits, no friction (TOPP-RA has none),
the same discretization (interpolation for acceleration and torque). TOPP-RA
gets our compiled inverse dynamics as its torque callback (its best case).
Our compute time is the first solution (path dynamics and both passes);
the dense check and its repairs are reported apart. Then the duration
change that friction and a 2 kg payload make in ours. :func:`bench_smooth`
measures the jerk-limited variant on the same paths.
"""

import time

import numpy as np


def _wrap(path):
    import toppra as ta

    class Path(ta.interpolator.AbstractGeometricPath):
        def __call__(self, s, order=0):
            out = path.sample(np.atleast_1d(s))[order]
            return out if np.ndim(s) else out[0]

        @property
        def dof(self):
            return path.n

        @property
        def path_interval(self):
            return np.array([0.0, path.duration])

    return Path()


def _toppra(path, lim, effort, grid, kernel):
    import toppra as ta
    import toppra.algorithm as algo
    import toppra.constraint as con
    began = time.perf_counter()
    geo = _wrap(path)
    zero = np.zeros(path.n)

    def inv_dyn(q, qd, qdd):
        out = np.empty(path.n)
        kernel(np.ascontiguousarray(q), np.ascontiguousarray(qd), np.ascontiguousarray(qdd),
               out)
        return out
    cons = [con.JointVelocityConstraint(np.vstack([-lim.velocity, lim.velocity]).T),
            con.JointAccelerationConstraint(
                np.vstack([-lim.acceleration, lim.acceleration]).T,
                discretization_scheme=con.DiscretizationType.Interpolation),
            con.JointTorqueConstraint(inv_dyn, np.vstack([-effort, effort]).T, zero,
                                      discretization_scheme=con.DiscretizationType.Interpolation)]
    inst = algo.TOPPRA(cons, geo, gridpoints=np.linspace(0.0, path.duration, grid),
                       parametrizer='ParametrizeConstAccel')
    traj = inst.compute_trajectory(0.0, 0.0)
    elapsed = time.perf_counter() - began
    ta.setup_logging('WARNING')
    return (traj.duration if traj is not None else float('nan')), elapsed


def bench_toppra(paths=20, grid=400, seed=0, effort_share=0.6):
    """
    Compare durations and compute times with TOPP-RA on random PUMA 560 paths.

    Parameters
    ----------
    paths : int
        Random 5-waypoint paths.
    grid : int
        Grid points for both.
    seed : int
        Random seed.
    effort_share : float
        Share of the model's effort limits used (so that the torque binds).

    Returns
    -------
    dict
        Per-path rows and summary (medians and maxima); ``error`` when
        toppra is not installed.

    """
    try:
        import toppra  # noqa: F401
    except ImportError as exc:
        return {'error': f'toppra not installed: {exc}'}
    from ..dynamics.codegen import kernels
    from ..model import load_robot
    from ..planning.efforts import ModelEffortProvider, Payload
    from ..planning.limits import PlanningLimits
    from ..planning.time_optimal import time_optimal, TimeOptimalSettings
    from ..planning.via_points import via_points
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    effort = lim.effort * effort_share
    kernel = kernels(model).inverse_dynamics_rigid
    rigid = ModelEffortProvider(model, friction=False)
    loaded = ModelEffortProvider(model, payload=Payload(2.0, (0.0, 0.0, 0.05)))
    rng = np.random.default_rng(seed)
    lo, hi = model.lower_limits, model.upper_limits
    mid = (lo + hi) / 2.0
    rows = []
    settings = TimeOptimalSettings(grid=grid)
    warm = via_points(np.array([mid, mid + 0.1]), limits=lim)
    time_optimal(warm, lim, rigid, effort_limits=effort, settings=settings)
    time_optimal(warm, lim, loaded, effort_limits=effort, settings=settings)
    while len(rows) < paths:
        pts = np.array([mid + 0.3 * (model.random_configuration(rng) - mid) for _ in range(5)])
        path = via_points(pts, limits=lim)
        t_ta, c_ta = _toppra(path, lim, effort, grid, kernel)
        ours = time_optimal(path, lim, rigid, effort_limits=effort, settings=settings)
        fric = time_optimal(path, lim, loaded, effort_limits=effort, settings=settings)
        rows.append({'toppra_s': t_ta, 'toppra_ms': c_ta * 1e3, 'ours_s': ours.duration,
                     'ours_solve_ms': ours.solve_time * 1e3,
                     'ours_total_ms': ours.total_time * 1e3, 'repairs': ours.repairs,
                     'ours_worst_ratio': ours.check.worst,
                     'friction_payload_s': fric.duration,
                     'friction_payload_solve_ms': fric.solve_time * 1e3,
                     'friction_payload_worst_ratio': fric.check.worst,
                     'uniform_s': path.duration})
    ratio = np.array([r['ours_s'] / r['toppra_s'] for r in rows])
    change = np.array([r['friction_payload_s'] / r['ours_s'] - 1.0 for r in rows])

    def med(key):
        return float(np.median([r[key] for r in rows]))
    return {'paths': paths, 'grid': grid, 'effort_share': effort_share, 'rows': rows,
            'duration_ratio_median': float(np.median(ratio)),
            'duration_ratio_max': float(np.max(ratio)),
            'toppra_ms_median': med('toppra_ms'), 'ours_solve_ms_median': med('ours_solve_ms'),
            'ours_total_ms_median': med('ours_total_ms'),
            'friction_payload_change_median': float(np.median(change)),
            'friction_payload_change_max': float(np.max(change)),
            'friction_payload_solve_ms_median': med('friction_payload_solve_ms'),
            'worst_ratio_ours': float(max(r['ours_worst_ratio'] for r in rows)),
            'worst_ratio_friction_payload': float(max(r['friction_payload_worst_ratio']
                                                      for r in rows))}


def format_toppra(res):
    """
    Format the comparison as text.

    Parameters
    ----------
    res : dict
        Output of :func:`bench_toppra`.

    Returns
    -------
    list of str
        Report lines.

    """
    if 'error' in res:
        return ['', f'TOPP-RA comparison skipped: {res["error"]}']
    return ['', f'Time-optimal vs TOPP-RA on {res["paths"]} random PUMA 560 paths, '
                f'{res["grid"]} grid points, {res["effort_share"] * 100:.0f}% effort limits',
            f'duration ours / TOPP-RA: median {res["duration_ratio_median"]:.4f}, '
            f'max {res["duration_ratio_max"]:.4f}',
            f'compute ms: TOPP-RA (our kernel) {res["toppra_ms_median"]:.1f}, ours solve '
            f'{res["ours_solve_ms_median"]:.1f} (with dense check and repairs '
            f'{res["ours_total_ms_median"]:.1f})',
            f'friction + 2 kg payload: duration change median '
            f'{res["friction_payload_change_median"] * 100:+.1f}%, max '
            f'{res["friction_payload_change_max"] * 100:+.1f}% (solve '
            f'{res["friction_payload_solve_ms_median"]:.1f} ms); worst dense |tau|/limit '
            f'{res["worst_ratio_friction_payload"]:.6f}']


def bench_smooth(paths=20, grid=400, seed=0, effort_share=0.6, jerk_per_acceleration=10.0,
                 local=True):
    """
    Measure the jerk-limited variant (``optimal_smooth``) on the paths of :func:`bench_toppra`.

    Same random PUMA 560 paths (same seed), no friction, ``effort_share`` of
    the effort limits, a jerk limit of ``jerk_per_acceleration`` times the
    acceleration limit [1/s]. The full joint jerk is measured independently
    by finite differences of the accelerations at 100,001 samples.

    Parameters
    ----------
    paths : int
        Random 5-waypoint paths.
    grid : int
        Grid points of the time-optimal law.
    seed : int
        Random seed (that of :func:`bench_toppra` gives its paths).
    effort_share : float
        Share of the model's effort limits used.
    jerk_per_acceleration : float
        Jerk limit over acceleration limit [1/s].
    local : bool
        As the planner does: stop where the path comes back on itself and
        lower the speed locally where the jerk is over (re-solving the law)
        before the uniform stretch; False: uniform stretch only.

    Returns
    -------
    dict
        Per-path rows (durations, window, stretch, ratios) and summary.

    """
    from ..model import load_robot
    from ..planning.efforts import ModelEffortProvider
    from ..planning.limits import PlanningLimits
    from ..planning.smoothing import smooth_time_optimal, smooth_with_stops
    from ..planning.time_optimal import time_optimal, TimeOptimalSettings
    from ..planning.via_points import via_points
    model = load_robot('puma560')
    lim = PlanningLimits.from_model(model)
    lim = lim.with_values(jerk=lim.acceleration * jerk_per_acceleration)
    effort = lim.effort * effort_share
    rigid = ModelEffortProvider(model, friction=False)
    rng = np.random.default_rng(seed)
    lo, hi = model.lower_limits, model.upper_limits
    mid = (lo + hi) / 2.0
    rows = []
    settings = TimeOptimalSettings(grid=grid)
    while len(rows) < paths:
        pts = np.array([mid + 0.3 * (model.random_configuration(rng) - mid) for _ in range(5)])
        path = via_points(pts, limits=lim)
        res = time_optimal(path, lim, rigid, effort_limits=effort, settings=settings)

        def solve(p, cap):
            return time_optimal(p, lim, rigid, effort_limits=effort, settings=settings,
                                speed_cap=cap).trajectory
        sm = smooth_with_stops(res.trajectory, lim, solve, rigid, effort) if local else \
            smooth_time_optimal(res.trajectory, lim, rigid, effort)
        t = np.linspace(0.0, sm.duration, 100001)
        fd = np.diff(sm.trajectory.sample(t)[2], axis=0) / np.diff(t)[:, None]
        rows.append({'optimal_s': res.duration, 'smooth_s': sm.duration, 'cost': sm.cost,
                     'window_s': sm.window, 'stretch': sm.slowdown,
                     'worst_ratio': sm.check.worst, 'jerk_ratio': float(np.max(sm.jerk_ratio)),
                     'jerk_ratio_fd': float(np.max(np.abs(fd) / lim.jerk)),
                     'smooth_ms': sm.total_time * 1e3})
    cost = np.array([r['cost'] for r in rows])
    jerk = np.array([r['jerk_ratio_fd'] for r in rows])
    return {'paths': paths, 'grid': grid, 'effort_share': effort_share,
            'jerk_per_acceleration': jerk_per_acceleration, 'local': local, 'rows': rows,
            'cost_median': float(np.median(cost)), 'cost_max': float(np.max(cost)),
            'worst_ratio': float(max(r['worst_ratio'] for r in rows)),
            'jerk_ratio_max': float(max(r['jerk_ratio'] for r in rows)),
            'jerk_ratio_fd_median': float(np.median(jerk)),
            'jerk_ratio_fd_max': float(np.max(jerk)),
            'stretch_median': float(np.median([r['stretch'] for r in rows])),
            'smooth_ms_median': float(np.median([r['smooth_ms'] for r in rows]))}


def format_smooth(res):
    """
    Format the jerk-limited variant's measurement as text.

    Parameters
    ----------
    res : dict
        Output of :func:`bench_smooth`.

    Returns
    -------
    list of str
        Report lines.

    """
    return ['', f'optimal_smooth on {res["paths"]} random PUMA 560 paths, '
                f'{res["effort_share"] * 100:.0f}% effort limits, jerk limit '
                f'{res["jerk_per_acceleration"]:g} x acceleration limit, '
                f'{"local speed caps, then " if res["local"] else ""}uniform stretch',
            f'duration cost over the time-optimal law: median {res["cost_median"] * 100:+.1f}%, '
            f'max {res["cost_max"] * 100:+.1f}% (uniform stretch median '
            f'{res["stretch_median"]:.3f}); pass {res["smooth_ms_median"]:.0f} ms median',
            f'worst dense ratio to the limits {res["worst_ratio"]:.6f}; peak full jerk / limit: '
            f'dense check {res["jerk_ratio_max"]:.6f}, finite differences median '
            f'{res["jerk_ratio_fd_median"]:.6f}, max {res["jerk_ratio_fd_max"]:.6f}']
