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
Forward dynamics of a model with load-dependent friction: graphs and C solver.

Bearing and transmission friction (seed 004) depend on the joint reactions,
hence on the acceleration, so ``inverse_dynamics(q, qd, qdd) = tau`` has no
closed form in ``qdd``. But the rigid torques and reactions (the *loads*)
are affine in ``qdd``: ``l(qdd) = l0 + A qdd``, with ``l0`` the recursion at
zero acceleration and ``A``'s columns the recursion at unit accelerations
without velocity and gravity; the inverse dynamics is then
``T(l(qdd), s) + Ia qdd + tau_v``, where ``T`` (the friction formulas of
:mod:`robodyn_ros.friction.symbolic` on the loads) costs a few operations
per joint. So the solver

1. evaluates one straight-line kernel of ``(q, qd)``: ``l0``, ``A``, the
   smoothed velocity signs ``s`` and the velocity friction ``tau_v``;
2. starts from the answer without load-dependent friction,
   ``(A_tau + Ia) qdd = tau - tau_v - l0_tau`` (``A_tau``, the torque rows
   of ``A``, is the rigid mass matrix);
3. runs Broyden iterations on the residual ``T(l0 + A qdd, s) + Ia qdd +
   tau_v - tau`` from a forward-difference Jacobian, which is rebuilt when
   a step does not lower the largest residual; a step from a new Jacobian
   is halved at most eight times, and when even that does not lower the
   residual (a kink of the friction: absolute values, tables, the sign of
   the torque) the shortest one is taken anyway, as the numpy reference
   does, and the Jacobian rebuilt there.

It stops when the largest residual is below :data:`TOL` times
``max(1, max |tau|)``, or when it stalls below :data:`ACCEPT` times that
(round-off); else the state has no solution found and the entry point
raises. The residual is the inverse-dynamics kernel's torque computed in
another order (round-off apart), so the answer inverts ``inverse_dynamics``.

Friction that grows with the loads faster than the inertia resists (a
large bearing coefficient on a joint carrying large moments, as in
Painleve's paradox) can make the torque a non-injective function of the
acceleration: then several accelerations give the same torque, and the
solver returns the one it reaches from the answer without load-dependent
friction (as the numpy reference, which starts there too); and some
torques may have no acceleration at all (the entry point raises). The
library robots stay far from that (the PUMA 560's round trip holds at ten
times its acceleration limits).
"""

from .emit_c import literal
from .sym_rne import rne, SymRne
from ...friction.symbolic import loaded_torque, smooth_sign, velocity_friction_torques

#: Target of the largest residual, relative to ``max(1, max |tau|)``.
TOL = 1e-14
#: Largest residual accepted when the iteration stalls (round-off), same scale.
ACCEPT = 1e-12
#: Most iterations.
MAX_ITER = 60


def load_count(tab):
    """
    Give the number of loads of a model: one torque per joint, five per bearing.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays.

    Returns
    -------
    int
        Length of ``l0`` (rows of ``A``).

    """
    return len(tab.bearing) + 5 * sum(b is not None for b in tab.bearing)


def _loads(res, tab):
    """Rigid torques, then force and moment (x, y) of each joint with a bearing."""
    out = list(res.tau)
    for i, bearing in enumerate(tab.bearing):
        if bearing is not None:
            out += list(res.force[i]) + list(res.moment[i][:2])
    return out


def solver_graphs(g, params, tab, q, qd, transforms):
    """
    Build the outputs of the setup and residual kernels of the solver.

    Parameters
    ----------
    g : Graph
        The graph (inputs ``q``, ``qd``; adds inputs ``ld``, ``sg``, ``x``).
    params : DynParams
        Model data.
    tab : DynamicsTables
        Model arrays (friction, armature).
    q, qd : list of int
        Position and velocity nodes.
    transforms : list of JointTransform
        Joint transforms of ``q`` (shared).

    Returns
    -------
    tuple
        ``(setup, residual)``: the outputs of ``setup(q, qd)`` (``l0``,
        ``A`` row-major, ``s``, ``tau_v``) and those of ``residual(ld, sg,
        x)`` (``T(ld, sg) + Ia x``, ``ld`` of :func:`load_count` entries).

    """
    n = params.n
    zero = [g.zero] * n
    l0 = _loads(rne(g, params, q, qd, zero, transforms=transforms), tab)
    cols = [_loads(rne(g, params, q, zero, [g.one if k == j else g.zero for k in range(n)],
                       gravity=False, transforms=transforms), tab) for j in range(n)]
    count = load_count(tab)
    mat = [cols[j][r] for r in range(count) for j in range(n)]
    loaded = [tab.bearing[i] is not None or tab.transmission[i] is not None
              for i in range(n)]
    signs = [smooth_sign(g, qd[i], float(tab.smoothing_velocity[i])) if loaded[i] else g.zero
             for i in range(n)]
    setup = l0 + mat + signs + velocity_friction_torques(g, tab, qd)
    ld, sg, x = g.var_array('ld', count), g.var_array('sg', n), g.var_array('x', n)
    force, moment = [None] * n, [None] * n
    k = n
    for i, bearing in enumerate(tab.bearing):
        if bearing is not None:
            force[i], moment[i] = ld[k:k + 3], ld[k + 3:k + 5] + [g.zero]
            k += 5
    res = SymRne(ld[:n], force, moment, None, None, None)
    residual = [g.add(loaded_torque(g, tab, i, res, sg[i]),
                      g.mul(g.const(float(tab.armature[i])), x[i])) for i in range(n)]
    return setup, residual


_SOURCE = r"""
static const double rd_fd_armature[{n}] = {{{armature}}};

/* ld = l0 + A x; r = {residual}(ld, s, x) + tau_v - tau; returns max |r| (NaN if any). */
static double rd_fd_residual(const double *setup, const double *b, const double *x,
                             double *r)
{{
    enum {{ N = {n}, L = {nl} }};
    const double *l0 = setup, *a = setup + L;
    double ld[L];
    for (int i = 0; i < L; ++i) {{
        double v = l0[i];
        for (int j = 0; j < N; ++j)
            v += a[i * N + j] * x[j];
        ld[i] = v;
    }}
    {residual}(ld, setup + L + L * N, x, r);
    double m = 0.0;
    for (int i = 0; i < N; ++i) {{
        r[i] -= b[i];
        if (!(fabs(r[i]) <= m))
            m = fabs(r[i]);
    }}
    return m;
}}

/* Inverse of the forward-difference Jacobian of the residual at x; -1 if singular. */
static int rd_fd_jacobian(const double *setup, const double *b, const double *x,
                          const double *r, double *hinv)
{{
    enum {{ N = {n} }};
    double xt[N], rt[N], jac[N * N];
    int piv[N];
    for (int j = 0; j < N; ++j) {{
        double h = 1e-7 * (fabs(x[j]) > 1.0 ? fabs(x[j]) : 1.0);
        memcpy(xt, x, sizeof xt);
        xt[j] += h;
        h = xt[j] - x[j];
        rd_fd_residual(setup, b, xt, rt);
        for (int i = 0; i < N; ++i)
            jac[i * N + j] = (rt[i] - r[i]) / h;
    }}
    if (rd_lu(N, jac, piv) < 0)
        return -1;
    for (int k = 0; k < N; ++k) {{
        double e[N];
        for (int i = 0; i < N; ++i)
            e[i] = i == k;
        rd_lu_solve(N, jac, piv, e);
        for (int i = 0; i < N; ++i)
            hinv[i * N + k] = e[i];
    }}
    return 0;
}}

/* Solve inverse_dynamics(q, qd, x) = tau for x (see fd_solve.py). Returns 0, or -1 when
   no solution was found (out: the last iterate). */
static int {solve}(const double *q, const double *qd, const double *tau, double *out)
{{
    enum {{ N = {n}, L = {nl} }};
    double setup[L + L * N + 2 * N];
    double b[N], x[N], r[N], xt[N], rt[N], m[N * N], hinv[N * N], step[N], hy[N], sh[N];
    int piv[N];
    {setup}(q, qd, setup);
    const double *tau_v = setup + L + L * N + N;
    double scale = 1.0;
    for (int i = 0; i < N; ++i) {{
        b[i] = tau[i] - tau_v[i];
        x[i] = b[i] - setup[i];
        if (!(fabs(tau[i]) <= scale))
            scale = fabs(tau[i]);
        for (int j = 0; j < N; ++j)
            m[i * N + j] = setup[L + i * N + j] + (i == j ? rd_fd_armature[i] : 0.0);
    }}
    const double tol = {tol} * scale, accept = {accept} * scale;
    double err = NAN;
    if (rd_lu(N, m, piv) == 0) {{
        rd_lu_solve(N, m, piv, x);
        err = rd_fd_residual(setup, b, x, r);
    }}
    int have = 0, fresh = 0;
    for (int it = 0; it < {max_iter} && err > tol; ++it) {{
        if (!have) {{
            if (rd_fd_jacobian(setup, b, x, r, hinv) < 0)
                break;
            have = fresh = 1;
        }}
        for (int i = 0; i < N; ++i) {{
            double v = 0.0;
            for (int j = 0; j < N; ++j)
                v -= hinv[i * N + j] * r[j];
            step[i] = v;
        }}
        double e2 = err;
        for (int half = 0; half <= (fresh ? 8 : 0); ++half) {{
            for (int i = 0; i < N; ++i)
                xt[i] = x[i] + step[i];
            e2 = rd_fd_residual(setup, b, xt, rt);
            if (e2 < err)
                break;
            for (int i = 0; i < N; ++i)
                step[i] *= 0.5;
        }}
        if (!(e2 < err)) {{
            if (err <= accept)
                break;
            if (fresh && isfinite(e2)) {{
                /* At a kink of the friction: take the shortest step, new Jacobian. */
                memcpy(x, xt, sizeof x);
                memcpy(r, rt, sizeof r);
                err = e2;
            }}
            have = 0;
            continue;
        }}
        /* Broyden's update of the inverse Jacobian: H += (s - H y) s^T H / (s^T H y). */
        double den = 0.0;
        for (int i = 0; i < N; ++i) {{
            double v = 0.0, w = 0.0;
            for (int j = 0; j < N; ++j) {{
                v += hinv[i * N + j] * (rt[j] - r[j]);
                w += step[j] * hinv[j * N + i];
            }}
            hy[i] = v;
            sh[i] = w;
        }}
        for (int i = 0; i < N; ++i)
            den += step[i] * hy[i];
        if (den != 0.0 && isfinite(den)) {{
            for (int i = 0; i < N; ++i)
                for (int j = 0; j < N; ++j)
                    hinv[i * N + j] += (step[i] - hy[i]) * sh[j] / den;
        }} else {{
            have = 0;
        }}
        memcpy(x, xt, sizeof x);
        memcpy(r, rt, sizeof r);
        err = e2;
        fresh = 0;
    }}
    memcpy(out, x, sizeof x);
    return err <= accept ? 0 : -1;
}}

/* The plain C function of the entry point: NaN accelerations when no solution is found. */
static void {cname}(const double *q, const double *qd, const double *tau, double *out)
{{
    if ({solve}(q, qd, tau, out) < 0)
        for (int i = 0; i < {n}; ++i)
            out[i] = NAN;
}}
"""

#: LU factorization with partial pivoting and its solve (placed once before the solvers).
HELPERS = r"""
/* In-place LU factorization with partial pivoting (row-major n x n); -1 when singular. */
static int rd_lu(int n, double *a, int *piv)
{
    for (int k = 0; k < n; ++k) {
        int p = k;
        for (int i = k + 1; i < n; ++i)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k]))
                p = i;
        piv[k] = p;
        if (!(a[p * n + k] != 0.0) || !isfinite(a[p * n + k]))
            return -1;
        if (p != k)
            for (int j = 0; j < n; ++j) {
                double t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
        for (int i = k + 1; i < n; ++i) {
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            for (int j = k + 1; j < n; ++j)
                a[i * n + j] -= f * a[k * n + j];
        }
    }
    return 0;
}

/* Solve with the factors of rd_lu, in place. */
static void rd_lu_solve(int n, const double *a, const int *piv, double *b)
{
    for (int k = 0; k < n; ++k) {
        double t = b[piv[k]];
        b[piv[k]] = b[k];
        b[k] = t;
    }
    for (int k = 0; k < n; ++k)
        for (int i = k + 1; i < n; ++i)
            b[i] -= a[i * n + k] * b[k];
    for (int k = n - 1; k >= 0; --k) {
        for (int j = k + 1; j < n; ++j)
            b[k] -= a[k * n + j] * b[j];
        b[k] /= a[k * n + k];
    }
}
"""


def solver_source(tab, loads, cname, solve, setup, residual):
    """
    C text of the solver and of its plain C entry function.

    Parameters
    ----------
    tab : DynamicsTables
        Model arrays (armature).
    loads : int
        Number of loads (see :func:`solver_graphs`).
    cname : str
        Plain C function (``void``; NaN accelerations when no solution).
    solve : str
        Solver function (``int``: 0, or -1 when no solution was found).
    setup : str
        Straight-line kernel ``(q, qd) -> (l0, A, s, tau_v)``.
    residual : str
        Straight-line kernel ``(ld, sg, x) -> T(ld, sg) + Ia x``.

    Returns
    -------
    str
        C text (needs :data:`HELPERS` before it).

    """
    n = len(tab.armature)
    armature = ', '.join(literal(float(a)) for a in tab.armature)
    return _SOURCE.format(n=n, nl=loads, armature=armature, cname=cname, solve=solve,
                          setup=setup, residual=residual, tol=literal(TOL),
                          accept=literal(ACCEPT), max_iter=MAX_ITER)
