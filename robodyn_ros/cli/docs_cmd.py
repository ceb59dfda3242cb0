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

"""``robodyn docs params``: the node reference's parameter tables, from the code."""

import sys

#: The document the tables live in (relative to the repository root).
REFERENCE = 'docs/reference.md'


def add_parser(sub):
    """
    Register the ``docs`` sub-command.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        Sub-parsers of the ``robodyn`` command.

    """
    from ..nodes.param_docs import NODES
    p = sub.add_parser('docs', help='generate parts of the documentation from the code',
                       description='Generate parts of the documentation from the code.')
    docs = p.add_subparsers(dest='docs', metavar='PART')
    docs.required = True
    pp = docs.add_parser(
        'params', help="rewrite the nodes' parameter tables of docs/reference.md",
        description="Render every node's parameter table (name, type, default, range or "
                    'choices, run time or read-only, meaning with units) from the ParamSpec '
                    'lists the nodes declare, without starting ROS, and write each between '
                    'its marker comments <!-- params:NODE:begin --> and '
                    '<!-- params:NODE:end --> in the file; the text around them is kept. '
                    f'Nodes: {", ".join(NODES)}.')
    pp.add_argument('--file', default=REFERENCE, metavar='MD',
                    help=f'the document (default {REFERENCE}, run from the repository root)')
    pp.add_argument('--check', action='store_true',
                    help='write nothing; exit 1 and name the tables that differ from the '
                         'code (and the nodes without a table)')
    pp.add_argument('--print', dest='node', choices=tuple(NODES), metavar='NODE',
                    help="print one node's table to stdout instead (choices: "
                         f'{", ".join(NODES)})')
    pp.set_defaults(run=run_params)


def run_params(args):
    """
    Execute ``robodyn docs params``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 when the file is (now) up to date, 1 with ``--check`` when a table
        differs or a node has none.

    """
    from ..nodes.param_docs import marked_nodes, node_table, NODES, rewrite, stale_tables
    if args.node:
        print(node_table(args.node))
        return 0
    with open(args.file, encoding='utf-8') as fh:
        text = fh.read()
    missing = [n for n in NODES if n not in marked_nodes(text)]
    if args.check:
        stale = stale_tables(text)
        for node in stale:
            print(f'{args.file}: the parameter table of {node} differs from the code',
                  file=sys.stderr)
        for node in missing:
            print(f'{args.file}: no parameter table of {node} (markers '
                  f'<!-- params:{node}:begin/end -->)', file=sys.stderr)
        if stale:
            print('regenerate with: robodyn docs params', file=sys.stderr)
        if stale or missing:
            return 1
        print(f'{args.file}: every parameter table matches the code')
        return 0
    new = rewrite(text)
    if new != text:
        with open(args.file, 'w', encoding='utf-8') as fh:
            fh.write(new)
    changed = 'rewritten' if new != text else 'already up to date'
    print(f'{args.file}: {len(marked_nodes(text))} parameter tables, {changed}')
    for node in missing:
        print(f'robodyn docs params: warning: {args.file} has no table of {node} (add '
              f'<!-- params:{node}:begin --> and <!-- params:{node}:end -->)', file=sys.stderr)
    return 0
