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
C text of straight-line kernels: one ``static void`` function per kernel.

Every input entry is read into a local first and every output is stored
last, so an output buffer may alias an input. Each operation node becomes
one ``const double`` temporary; a joint angle whose sine and cosine are both
needed gets one ``sincos`` call.
"""

import math

_FUNCS = {'tanh': 'tanh', 'exp': 'exp', 'fabs': 'fabs', 'sqrt': 'sqrt', 'hypot': 'hypot',
          'max0': 'rd_max0', 'min0': 'rd_min0', 'sign': 'rd_sign'}

#: Helpers that the kernels call (placed once at the top of the module).
C_HELPERS = r"""
#if defined(__GNUC__) || defined(__clang__)
#define RD_SINCOS(x, s, c) __builtin_sincos((x), (s), (c))
#else
#define RD_SINCOS(x, s, c) (*(s) = sin(x), *(c) = cos(x))
#endif
static inline double rd_max0(double x) { return x > 0.0 ? x : 0.0; }
static inline double rd_min0(double x) { return x < 0.0 ? x : 0.0; }
static inline double rd_sign(double x) { return (double)((x > 0.0) - (x < 0.0)); }
"""


def literal(value):
    """
    C literal of a double that reads back exactly.

    Parameters
    ----------
    value : float
        The number (finite).

    Returns
    -------
    str
        C text, parenthesized when negative.

    """
    if not math.isfinite(value):
        raise ValueError(f'cannot emit the non-finite constant {value!r}')
    text = repr(float(value))
    return f'({text})' if value < 0.0 else text


def interp_function(index, xp, fp):
    """
    C function of one piecewise-linear table (``numpy.interp`` semantics).

    Parameters
    ----------
    index : int
        Table number (function ``rd_interp<index>``).
    xp, fp : sequence of float
        Increasing abscissae and values.

    Returns
    -------
    str
        C text.

    """
    lines = [f'static double rd_interp{index}(double x) {{',
             f'    if (!(x > {literal(xp[0])})) return {literal(fp[0])};']
    for k in range(len(xp) - 1):
        x0, x1, f0, f1 = xp[k], xp[k + 1], fp[k], fp[k + 1]
        slope = (f1 - f0) / (x1 - x0)
        lines.append(f'    if (x < {literal(x1)}) return {literal(slope)} * (x - '
                     f'{literal(x0)}) + {literal(f0)};')
    lines.append(f'    return {literal(fp[-1])};')
    lines.append('}')
    return '\n'.join(lines) + '\n'


class FunctionEmitter:
    """
    Turn graph outputs into one C function.

    Parameters
    ----------
    graph : Graph
        The expression graph.

    """

    def __init__(self, graph):
        self.g = graph
        self._fast_hypot = False

    def _ref(self, a, names):
        g = self.g
        op = g.op[a]
        if op == 'const':
            return literal(g.val[a])
        return names[a]

    def _expr(self, a, names):
        g = self.g
        op, args = g.op[a], g.args[a]
        r = [self._ref(b, names) for b in args]
        if op == 'add':
            return f'{r[0]} + {r[1]}'
        if op == 'sub':
            return f'{r[0]} - {r[1]}'
        if op == 'mul':
            return f'{r[0]} * {r[1]}'
        if op == 'div':
            return f'{r[0]} / {r[1]}'
        if op == 'neg':
            return f'-{r[0]}'
        if op == 'sel':
            cmp = '>' if g.val[a] == 'gt' else '<'
            return f'({r[0]} {cmp} 0.0) ? {r[1]} : {r[2]}'
        name = g.val[a]
        if name == 'hypot' and self._fast_hypot:
            return f'sqrt({r[0]} * {r[0]} + {r[1]} * {r[1]})'
        cname = f'rd_{name}' if name.startswith('interp') else _FUNCS[name]
        return f'{cname}({", ".join(r)})'

    def function(self, cname, inputs, outputs, fast_hypot=False):
        """
        C text of ``static void cname(const double *in1, ..., double *out)``.

        Parameters
        ----------
        cname : str
            Function name.
        inputs : sequence of (str, int)
            Input array names (as used by :meth:`Graph.var`) and lengths.
        outputs : sequence of int
            Output nodes, stored to ``out[0..]``.
        fast_hypot : bool
            ``sqrt(x * x + y * y)`` instead of libm's ``hypot`` (about three
            times faster; the same to about an ulp for loads that neither
            overflow nor underflow when squared).

        Returns
        -------
        str
            C text.

        """
        g = self.g
        self._fast_hypot = fast_hypot
        params = ', '.join(f'const double *{name}' for name, _ in inputs)
        lines = [f'static void {cname}({params}, double *out)', '{']
        prog = g.program(outputs)
        used = set()
        for a in prog:
            used.update(g.args[a])
        used.update(outputs)
        names = {}
        for name, count in inputs:
            for k in range(count):
                node = g.find_var(name, k)
                if node is not None and node in used:
                    names[node] = f'{name}_{k}'
                    lines.append(f'    const double {name}_{k} = {name}[{k}];')
        angles = {}
        for a in prog:
            if g.op[a] in ('sin', 'cos'):
                angles.setdefault(g.args[a][0], {})[g.op[a]] = a
        for arg, pair in angles.items():
            x = self._ref(arg, names)
            if len(pair) == 2:
                s, c = pair['sin'], pair['cos']
                names[s], names[c] = f's{s}', f'c{c}'
                lines.append(f'    double s{s}, c{c};')
                lines.append(f'    RD_SINCOS({x}, &s{s}, &c{c});')
            else:
                (kind, node), = pair.items()
                names[node] = f't{node}'
                lines.append(f'    const double t{node} = {kind}({x});')
        for a in prog:
            if g.op[a] in ('sin', 'cos'):
                continue
            names[a] = f't{a}'
            lines.append(f'    const double t{a} = {self._expr(a, names)};')
        for k, a in enumerate(outputs):
            lines.append(f'    out[{k}] = {self._ref(a, names)};')
        lines.append('}')
        return '\n'.join(lines) + '\n'
