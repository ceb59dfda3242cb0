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
``robodyn schedule ROBOT``: Dhanaraj's task graph and list schedules of a robot.

The task graph is that of seed 004 (C. Dhanaraj, M.Eng. thesis, Memorial
University of Newfoundland, 1990, one of the five source documents of
robodyn_ros). Prints, for p = 1..P, the schedule length in levels, the
speed-up and the efficiency of the robot's generic and customized task
graphs beside the thesis's figures (generic 6-link arm; customized Stanford
arm of Table 4.8) and those of an independent re-implementation of its
scheduler, with the thesis's cost model (0.135 ms per level) labelled as
modelled. ``--gantt OUT.png`` draws the schedule on P processors.
"""

import json

from .args import int_between, output_file


def add_parser(sub):
    """
    Register the ``schedule`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    p = sub.add_parser('schedule', help="Dhanaraj's (1990) parallel task graph and list "
                                        'schedules of a robot',
                       description='Decompose the inverse dynamics of ROBOT into the 43 '
                                   "3-flop subtasks per link of Dhanaraj's M.Eng. thesis "
                                   '(1990; "seed 004", one of the five source documents of '
                                   'robodyn_ros, see docs/parallel.md), list-schedule them on '
                                   "1..P processors and compare with the thesis's figures "
                                   'and with an independent re-implementation of its '
                                   'scheduler ("reimpl.").')
    p.add_argument('robot', help='library robot, example robot or URDF/xacro path')
    p.add_argument('-p', '--processors', type=int_between(1, 1000), default=13, metavar='P',
                   help='largest processor count, 1-1000 (default 13); the Gantt chart uses P')
    p.add_argument('--json', action='store_true', help='print JSON instead of tables')
    p.add_argument('--gantt', metavar='OUT.png', help='draw the schedule on P processors')
    p.add_argument('--generic', action='store_true',
                   help='draw the generic graph in the Gantt chart (default: customized)')
    p.set_defaults(run=run)


def _row(schedule):
    return {'levels': schedule.length, 'speedup': round(schedule.speedup, 4),
            'efficiency': round(schedule.efficiency, 4)}


def _graph_info(graph):
    return {'name': graph.name, 'kind': graph.kind, 'tasks': graph.size,
            'flops': graph.flops, 'layers': graph.depth, 'width': graph.width}


def report(model, max_p):
    """
    Schedules of a model's graphs beside the thesis's figures.

    Parameters
    ----------
    model : RobotModel
        The robot.
    max_p : int
        Largest processor count.

    Returns
    -------
    dict
        ``graphs`` (name -> shape), ``rows`` (one per p) and ``notes``.

    """
    from ..reproductions import parallel_figures as ref
    from ..parallel.schedule import list_schedule
    from ..parallel.taskgraph import generic_graph, table_graph, task_graph
    graphs = {'generic': task_graph(model, False), 'customized': task_graph(model, True),
              'thesis generic 6-link': generic_graph(6),
              'thesis Stanford (Table 4.7)': table_graph(
                  ref.TABLE_4_7_PARENTS, ref.TABLE_4_7_PRISMATIC, ref.TABLE_4_7,
                  'Stanford, Table 4.7 task set')}
    rows = []
    for p in range(1, max_p + 1):
        row = {'p': p}
        for key, graph in graphs.items():
            row[key] = _row(list_schedule(graph, p))
        row['customized']['modelled_ms'] = round(
            row['customized']['levels'] * ref.DHANARAJ_LEVEL_TIME * 1e3, 3)
        row['thesis generic 6-link levels'] = ref.DHANARAJ_GENERIC_LENGTHS.get(p)
        row['reimplementation generic 6-link levels'] = ref.DIGEST004_GENERIC.get(p)
        row['thesis Stanford levels'] = ref.DHANARAJ_STANFORD_LENGTHS.get(p)
        row['reimplementation Stanford levels'] = ref.DIGEST004_STANFORD.get(p)
        row['thesis Stanford ms (Table 4.8)'] = ref.DHANARAJ_STANFORD_MS.get(p)
        rows.append(row)
    notes = ['levels: schedule length in 3-flop subtask times (modelled, not measured)',
             'thesis: Dhanaraj 1990 (seed 004), Appendix C and Tables 4.3, 4.7, 4.8; reimpl.: '
             "an independent re-implementation of the thesis's list scheduler",
             'modelled_ms: levels x 0.135 ms, the thesis cost model of Table 4.8 (Intel 8086)',
             'speed-up S_p = T_1 / T_p with T_1 = number of subtasks; efficiency E_p = S_p / p']
    return {'robot': model.name, 'n': model.n,
            'graphs': {k: _graph_info(g) for k, g in graphs.items()},
            'rows': rows, 'notes': notes}


def _fmt(value, spec):
    return '-' if value is None else format(value, spec)


def format_report(res):
    """
    Format :func:`report` as text tables.

    Parameters
    ----------
    res : dict
        Output of :func:`report`.

    Returns
    -------
    str
        The text.

    """
    out = [f'Task graphs (Dhanaraj 1990, 43 subtasks of 3 flops per link) for {res["robot"]} '
           f'({res["n"]} joints)', '']
    out.append(f'{"graph":32} {"tasks":>6} {"flops":>6} {"layers":>7} {"width":>6}')
    for key, g in res['graphs'].items():
        out.append(f'{key:32} {g["tasks"]:6d} {g["flops"]:6d} {g["layers"]:7d} {g["width"]:6d}')
    out += ['', f'List schedules of {res["robot"]} (levels / speed-up / efficiency %)', '']
    head = (f'{"p":>3} | {"generic":>20} | {"customized":>20} {"model ms":>8} | '
            f'{"6-link: ours":>17} {"thesis":>6} {"reimpl.":>7} | '
            f'{"Stanford T4.7: ours":>19} {"thesis":>6} {"reimpl.":>7} {"thesis ms":>9}')
    out += [head, '-' * len(head)]
    for r in res['rows']:
        def cell(x):
            return f'{x["levels"]:5d} {x["speedup"]:6.2f} {100 * x["efficiency"]:6.1f}%'
        out.append(
            f'{r["p"]:3d} | {cell(r["generic"]):>20} | {cell(r["customized"]):>20} '
            f'{r["customized"]["modelled_ms"]:8.2f} | '
            f'{r["thesis generic 6-link"]["levels"]:17d} '
            f'{_fmt(r["thesis generic 6-link levels"], "d"):>6} '
            f'{_fmt(r["reimplementation generic 6-link levels"], "d"):>7} | '
            f'{r["thesis Stanford (Table 4.7)"]["levels"]:19d} '
            f'{_fmt(r["thesis Stanford levels"], "d"):>6} '
            f'{_fmt(r["reimplementation Stanford levels"], "d"):>7} '
            f'{_fmt(r["thesis Stanford ms (Table 4.8)"], ".2f"):>9}')
    out += [''] + [f'* {n}' for n in res['notes']]
    return '\n'.join(out)


def run(args):
    """
    Execute ``robodyn schedule``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        Exit code.

    """
    from ..model import load_robot
    if args.gantt:
        output_file(args.gantt, '--gantt')
    model = load_robot(args.robot)
    res = report(model, args.processors)
    if args.gantt:
        from ..parallel.gantt import draw_gantt
        from ..parallel.schedule import list_schedule
        from ..parallel.taskgraph import task_graph
        schedule = list_schedule(task_graph(model, not args.generic), args.processors)
        res['gantt'] = draw_gantt(schedule, args.gantt)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(format_report(res))
        if args.gantt:
            print(f'\nGantt chart written to {res["gantt"]}')
    return 0
