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
The CPython extension module around the generated kernels (C text).

Each kernel gets a single-state entry point and a batch entry point, both
``METH_FASTCALL | METH_KEYWORDS``. Arguments must be C-contiguous float64 of
the exact shape and finite; anything else raises ``ValueError`` before a
kernel runs (the single-state check of the values is one branch-free pass
over a few doubles).
They are taken through the buffer protocol; for a numpy array passed to a
single-state entry point the same checks are read directly from the array
(numpy's C API), because ``PyObject_GetBuffer`` costs about 80 ns per array
on numpy 2 and a call takes four arrays. Batch entry points always hold
buffer exports (the arrays cannot be resized while the GIL is released);
they take a row range ``start, stop`` and release the GIL around the loop,
so Python threads can split a batch; while they run they check every input
for NaN and infinity, and raise ``ValueError`` naming the first bad row. A
kernel with a solver (``KernelSpec.solve``) raises ``ForwardDynamicsError``
when the solver finds no solution (for a batch, naming the first such row).
Outputs are allocated when no ``out`` is given, with numpy's C API when its
headers are there (about 0.3 us cheaper per call than calling
``numpy.empty``), else with ``numpy.empty``.
"""


_SINGLE = r"""
static PyObject *py_{py}(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames)
{{
    static const char *const names[] = {{{names}}};
    static const Py_ssize_t in_shape[] = {{{in_len}}};
    static const Py_ssize_t out_shape[] = {{{out_shape}}};
    PyObject *slots[{nslots}];
    Py_buffer views[{nslots}];
    int held = 0;
    PyObject *res = NULL;
    const double *ptr[{nin}];
    if (rd_parse(args, nargs, kwnames, "{py}", names, {nin}, {nslots}, slots) < 0)
        return NULL;
    for (int k = 0; k < {nin}; ++k) {{
        double *p;
        int r = rd_get(slots[k], &views[held], 0, 1, &in_shape[k], "{py}", names[k], 1, &p);
        if (r < 0)
            goto done;
        held += r;
        ptr[k] = p;
    }}
{ext_get}{finite_check}    if ({finite_test} != 0.0) {{
        rd_non_finite("{py}", names, {nin}, in_shape, ptr{ext_arg});
        goto done;
    }}
    if (slots[{nin}] == NULL) {{
        res = rd_new({out_ndim}, out_shape);
        if (res == NULL)
            goto done;
    }} else {{
        res = slots[{nin}];
        Py_INCREF(res);
    }}
    double *out;
    int r_out = rd_get(res, &views[held], 1, {out_ndim}, out_shape, "{py}", "out", 1, &out);
    if (r_out < 0) {{
        Py_CLEAR(res);
        goto done;
    }}
    held += r_out;
{call}
done:
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    return res;
}}
"""

_BATCH = r"""
static PyObject *py_{py}_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{{
    static const char *const names[] = {{{batch_names}}};
    static const Py_ssize_t in_len[] = {{{in_len}}};
    PyObject *slots[{nbatch}];
    Py_buffer views[{nslots}];
    int held = 0;
    PyObject *res = NULL;
    const double *ptr[{nin}];
    Py_ssize_t rows = -1, start, stop;
    if (rd_parse(args, nargs, kwnames, "{py}_batch", names, {nin}, {nbatch}, slots) < 0)
        return NULL;
    for (int k = 0; k < {nin}; ++k) {{
        Py_ssize_t shape[2] = {{rows, in_len[k]}};
        double *p;
        if (rd_get(slots[k], &views[held], 0, 2, shape, "{py}_batch", names[k], 0, &p) < 0)
            goto done;
        rows = views[held++].shape[0];
        ptr[k] = p;
    }}
{ext_get_batch}    Py_ssize_t out_shape[] = {{rows, {out_shape}}};
    if (slots[{nin}] == NULL) {{
        res = rd_new({out_ndim} + 1, out_shape);
        if (res == NULL)
            goto done;
    }} else {{
        res = slots[{nin}];
        Py_INCREF(res);
    }}
    double *out;
    if (rd_get(res, &views[held], 1, {out_ndim} + 1, out_shape, "{py}_batch", "out", 0,
               &out) < 0) {{
        Py_CLEAR(res);
        goto done;
    }}
    held++;
    if (rd_index(slots[{nin} + 1], 0, &start) < 0
        || rd_index(slots[{nin} + 2], rows, &stop) < 0) {{
        Py_CLEAR(res);
        goto done;
    }}
    if (start < 0 || stop < start || stop > rows) {{
        PyErr_Format(PyExc_ValueError, "{py}_batch: need 0 <= start <= stop <= %zd rows, "
                     "got start=%zd, stop=%zd", rows, start, stop);
        Py_CLEAR(res);
        goto done;
    }}
    Py_ssize_t bad = -1{failed_decl};
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = start; r < stop; ++r) {{
        if (bad < 0) {{
            for (int k = 0; k < {nin} && bad < 0; ++k)
                for (Py_ssize_t j = 0; j < in_len[k]; ++j)
                    if (!isfinite(ptr[k][r * in_len[k] + j])) {{
                        bad = r;
                        break;
                    }}
{ext_check_batch}        }}
{batch_call}
    }}
    Py_END_ALLOW_THREADS
    if (bad >= 0) {{
        PyErr_Format(PyExc_ValueError, "{py}_batch: row %zd has a NaN or infinite input",
                     bad);
        Py_CLEAR(res);
    }}{failed_raise}
done:
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    return res;
}}
"""


def _c_list(items):
    return ', '.join(str(x) for x in items)


def wrapper_source(spec):
    """
    C text of the single-state and batch entry points of one kernel.

    Parameters
    ----------
    spec : KernelSpec
        Python name, C function names, inputs and output shape.

    Returns
    -------
    str
        C text.

    """
    names = [name for name, _ in spec.inputs] + ['out'] + (['f_ext'] if spec.ext_cname else [])
    in_len = [length for _, length in spec.inputs]
    nin = len(spec.inputs)
    out_size = 1
    for d in spec.out_shape:
        out_size *= d
    args = ', '.join(f'ptr[{k}]' for k in range(nin))
    bargs = ', '.join(f'ptr[{k}] + r * {in_len[k]}' for k in range(nin))
    ext_get = ext_get_b = ''
    if spec.ext_cname:
        ext_get = (f'    double *fext = NULL;\n'
                   f'    if (slots[{nin + 1}] != NULL) {{\n'
                   f'        static const Py_ssize_t ext_shape[] = {{6}};\n'
                   f'        int r = rd_get(slots[{nin + 1}], &views[held], 0, 1, ext_shape, '
                   f'"{spec.py}", "f_ext", 1, &fext);\n'
                   f'        if (r < 0)\n'
                   f'            goto done;\n'
                   f'        held += r;\n'
                   f'    }}\n')
        ext_get_b = (f'    double *fext = NULL;\n'
                     f'    if (slots[{nin + 3}] != NULL) {{\n'
                     f'        Py_ssize_t ext_shape[] = {{rows, 6}};\n'
                     f'        if (rd_get(slots[{nin + 3}], &views[held], 0, 2, ext_shape, '
                     f'"{spec.py}_batch", "f_ext", 0, &fext) < 0)\n'
                     f'            goto done;\n'
                     f'        held++;\n'
                     f'    }}\n')
        call = (f'    if (fext != NULL)\n        {spec.ext_cname}({args}, fext, out);\n'
                f'    else\n        {spec.cname}({args}, out);')
        batch_call = (f'        if (fext != NULL)\n'
                      f'            {spec.ext_cname}({bargs}, fext + r * 6, out + r * '
                      f'{out_size});\n'
                      f'        else\n'
                      f'            {spec.cname}({bargs}, out + r * {out_size});')
    elif spec.solve:
        call = (f'    if ({spec.solve}({args}, out) < 0) {{\n'
                f'        rd_no_solution("{spec.py}", -1);\n'
                f'        Py_CLEAR(res);\n'
                f'    }}')
        batch_call = (f'        if ({spec.solve}({bargs}, out + r * {out_size}) < 0 '
                      f'&& failed < 0)\n'
                      f'            failed = r;')
    else:
        call = f'    {spec.cname}({args}, out);'
        batch_call = f'        {spec.cname}({bargs}, out + r * {out_size});'
    # x * 0.0 is 0 for a finite x and NaN for NaN or inf: one sum per input (independent
    # chains, no branch) tells whether all are finite, in a few nanoseconds.
    check = [f'    double z{k} = 0.0;\n    for (int j = 0; j < {length}; ++j)\n'
             f'        z{k} += ptr[{k}][j] * 0.0;\n' for k, length in enumerate(in_len)]
    terms = [f'z{k}' for k in range(nin)]
    ext_check_b = ''
    if spec.ext_cname:
        check.append('    double zf = 0.0;\n    if (fext != NULL)\n'
                     '        for (int j = 0; j < 6; ++j)\n'
                     '            zf += fext[j] * 0.0;\n')
        terms.append('zf')
        ext_check_b = ('            if (bad < 0 && fext != NULL)\n'
                       '                for (int j = 0; j < 6; ++j)\n'
                       '                    if (!isfinite(fext[r * 6 + j])) {\n'
                       '                        bad = r;\n'
                       '                        break;\n'
                       '                    }\n')
    failed_decl = failed_raise = ''
    if spec.solve:
        failed_decl = ', failed = -1'
        failed_raise = (f' else if (failed >= 0) {{\n'
                        f'        rd_no_solution("{spec.py}_batch", failed);\n'
                        f'        Py_CLEAR(res);\n'
                        f'    }}')
    quoted = ', '.join(f'"{x}"' for x in names)
    batch_names = [name for name, _ in spec.inputs] + ['out', 'start', 'stop']
    batch_names += ['f_ext'] if spec.ext_cname else []
    fields = {'py': spec.py, 'names': quoted, 'in_len': _c_list(in_len), 'nin': nin,
              'nslots': len(names), 'batch_names': ', '.join(f'"{x}"' for x in batch_names),
              'nbatch': len(batch_names), 'out_shape': _c_list(spec.out_shape),
              'out_ndim': len(spec.out_shape), 'ext_get': ext_get, 'ext_get_batch': ext_get_b,
              'call': call, 'batch_call': batch_call, 'finite_check': ''.join(check),
              'finite_test': ' + '.join(terms),
              'ext_arg': ', fext' if spec.ext_cname else ', NULL',
              'ext_check_batch': ext_check_b, 'failed_decl': failed_decl,
              'failed_raise': failed_raise}
    return _SINGLE.format(**fields) + _BATCH.format(**fields)


def module_source(module_name, specs, doc):
    """
    C text of the method table and module init.

    Parameters
    ----------
    module_name : str
        Extension module name (``PyInit_<name>``).
    specs : sequence of KernelSpec
        Kernels with their docstrings.
    doc : str
        Module docstring (plain ASCII, no quotes).

    Returns
    -------
    str
        C text.

    """
    methods = []
    for s in specs:
        for suffix, text in (('', s.doc), ('_batch', s.batch_doc)):
            methods.append(f'    {{"{s.py}{suffix}", (PyCFunction)(void (*)(void))py_{s.py}'
                           f'{suffix}, METH_FASTCALL | METH_KEYWORDS, "{text}"}},')
    table = '\n'.join(methods)
    # The plain C functions' addresses, for callers that call them without the
    # Python wrapper (ctypes, or numba-compiled code; see kernels.c_function).
    addresses = '\n'.join(
        f'    if (rd_add_address(addr, "{s.py}", (void *){s.cname}) < 0)\n        goto fail;'
        for s in specs)
    return f"""
static int rd_add_address(PyObject *dict, const char *name, void *fn)
{{
    PyObject *value = PyLong_FromVoidPtr(fn);
    if (value == NULL)
        return -1;
    int r = PyDict_SetItemString(dict, name, value);
    Py_DECREF(value);
    return r;
}}

static PyMethodDef rd_methods[] = {{
{table}
    {{NULL, NULL, 0, NULL}}
}};

static struct PyModuleDef rd_module = {{
    PyModuleDef_HEAD_INIT, "{module_name}", "{doc}", -1, rd_methods
}};

PyMODINIT_FUNC PyInit_{module_name}(void)
{{
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy == NULL)
        return NULL;
#ifdef RD_HAVE_NUMPY
    import_array();
#endif
    rd_empty = PyObject_GetAttrString(numpy, "empty");
    Py_DECREF(numpy);
    if (rd_empty == NULL)
        return NULL;
    PyObject *mod = PyModule_Create(&rd_module);
    PyObject *addr = PyDict_New();
    if (mod == NULL || addr == NULL)
        goto fail;
{addresses}
    if (PyModule_AddObject(mod, "c_addresses", addr) < 0)
        goto fail;
    return mod;
fail:
    Py_XDECREF(addr);
    Py_XDECREF(mod);
    return NULL;
}}
"""
