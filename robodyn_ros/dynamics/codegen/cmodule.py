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
the exact shape; anything else raises ``ValueError`` before a kernel runs.
They are taken through the buffer protocol; for a numpy array passed to a
single-state entry point the same checks are read directly from the array
(numpy's C API), because ``PyObject_GetBuffer`` costs about 80 ns per array
on numpy 2 and a call takes four arrays. Batch entry points always hold
buffer exports (the arrays cannot be resized while the GIL is released);
they take a row range ``start, stop`` and release the GIL around the loop,
so Python threads can split a batch. Outputs are allocated when no ``out`` is given, with
numpy's C API when its headers are there (about 0.3 us cheaper per call than
calling ``numpy.empty``), else with ``numpy.empty``.
"""

from .emit_c import C_HELPERS

PRELUDE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>
#ifdef RD_HAVE_NUMPY
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#endif
""" + C_HELPERS + r"""
static PyObject *rd_empty = NULL;

static int rd_is_f64(const char *fmt)
{
    if (fmt == NULL)
        return 0;
    if (fmt[0] == '@' || fmt[0] == '=')
        fmt++;
#if PY_LITTLE_ENDIAN
    else if (fmt[0] == '<')
        fmt++;
#else
    else if (fmt[0] == '>' || fmt[0] == '!')
        fmt++;
#endif
    return fmt[0] == 'd' && fmt[1] == '\0';
}

static void rd_shape_text(char *buf, size_t size, int ndim, const Py_ssize_t *shape)
{
    size_t pos = (size_t)PyOS_snprintf(buf, size, "(");
    for (int k = 0; k < ndim && pos < size; ++k)
        pos += (size_t)PyOS_snprintf(buf + pos, size - pos, k ? ", %zd" : "%zd", shape[k]);
    if (pos < size)
        PyOS_snprintf(buf + pos, size - pos, ndim == 1 ? ",)" : ")");
}

/* Get the data of a C-contiguous float64 array of an exact shape (shape[k] < 0: any).
   Returns -1 on error (ValueError set), 1 when *view was filled (release it later),
   0 when an ndarray was read directly through numpy's C API (fast != 0, GIL held). */
static int rd_get(PyObject *obj, Py_buffer *view, int writable, int ndim,
                  const Py_ssize_t *shape, const char *fname, const char *arg, int fast,
                  double **data)
{
    int got_ndim;
    const Py_ssize_t *got_shape;
    int held = 0;
#ifdef RD_HAVE_NUMPY
    if (fast && PyArray_Check(obj)) {
        PyArrayObject *arr = (PyArrayObject *)obj;
        if (PyArray_TYPE(arr) != NPY_DOUBLE || !PyArray_ISNOTSWAPPED(arr)) {
            PyErr_Format(PyExc_ValueError, "%s: %s must have dtype float64, got %R", fname,
                         arg, (PyObject *)PyArray_DESCR(arr));
            return -1;
        }
        if (!PyArray_IS_C_CONTIGUOUS(arr) || (writable && !PyArray_ISWRITEABLE(arr))) {
            PyErr_Format(PyExc_ValueError, "%s: %s must be a %sC-contiguous float64 array",
                         fname, arg, writable ? "writable " : "");
            return -1;
        }
        got_ndim = PyArray_NDIM(arr);
        got_shape = (const Py_ssize_t *)PyArray_DIMS(arr);
        *data = (double *)PyArray_DATA(arr);
    } else
#endif
    {
        int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
        if (!PyObject_CheckBuffer(obj)) {
            PyErr_Format(PyExc_ValueError, "%s: %s must be a float64 numpy array, got %.80s",
                         fname, arg, Py_TYPE(obj)->tp_name);
            return -1;
        }
        if (PyObject_GetBuffer(obj, view, flags) != 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s: %s must be a %sC-contiguous float64 array",
                         fname, arg, writable ? "writable " : "");
            return -1;
        }
        if (view->itemsize != 8 || !rd_is_f64(view->format)) {
            PyErr_Format(PyExc_ValueError, "%s: %s must have dtype float64 (format 'd'), "
                         "got format '%s'", fname, arg, view->format ? view->format : "B");
            PyBuffer_Release(view);
            return -1;
        }
        held = 1;
        got_ndim = view->ndim;
        got_shape = view->shape;
        *data = (double *)view->buf;
    }
    int ok = got_ndim == ndim;
    for (int k = 0; ok && k < ndim; ++k)
        ok = shape[k] < 0 || got_shape[k] == shape[k];
    if (!ok) {
        char want[96], got[96];
        rd_shape_text(want, sizeof want, ndim, shape);
        rd_shape_text(got, sizeof got, got_ndim, got_shape);
        PyErr_Format(PyExc_ValueError, "%s: %s must have shape %s (-1: any), got %s",
                     fname, arg, want, got);
        if (held)
            PyBuffer_Release(view);
        return -1;
    }
    return held;
}

static PyObject *rd_new(int ndim, const Py_ssize_t *shape)
{
#ifdef RD_HAVE_NUMPY
    npy_intp size[3];
    for (int k = 0; k < ndim && k < 3; ++k)
        size[k] = (npy_intp)shape[k];
    return PyArray_SimpleNew(ndim, size, NPY_DOUBLE);
#endif
    PyObject *dims = PyTuple_New(ndim);
    if (dims == NULL)
        return NULL;
    for (int k = 0; k < ndim; ++k) {
        PyObject *d = PyLong_FromSsize_t(shape[k]);
        if (d == NULL) {
            Py_DECREF(dims);
            return NULL;
        }
        PyTuple_SET_ITEM(dims, k, d);
    }
    PyObject *res = PyObject_CallOneArg(rd_empty, dims);
    Py_DECREF(dims);
    return res;
}

/* Sort positional and keyword arguments into slots; unknown names raise. */
static int rd_parse(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *fname, const char *const *names, int nreq, int nmax,
                    PyObject **slots)
{
    if (nargs > nmax) {
        PyErr_Format(PyExc_TypeError, "%s takes at most %d arguments (%zd given)", fname,
                     nmax, nargs);
        return -1;
    }
    for (int k = 0; k < nmax; ++k)
        slots[k] = k < nargs ? args[k] : NULL;
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t j = 0; j < nkw; ++j) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, j);
            int found = -1;
            for (int k = 0; k < nmax; ++k)
                if (PyUnicode_CompareWithASCIIString(key, names[k]) == 0) {
                    found = k;
                    break;
                }
            if (found < 0 || slots[found] != NULL) {
                PyErr_Format(PyExc_TypeError, "%s: %s keyword argument '%U'", fname,
                             found < 0 ? "unexpected" : "repeated", key);
                return -1;
            }
            slots[found] = args[nargs + j];
        }
    }
    for (int k = 0; k < nreq; ++k)
        if (slots[k] == NULL || slots[k] == Py_None) {
            PyErr_Format(PyExc_TypeError, "%s: missing argument '%s'", fname, names[k]);
            return -1;
        }
    for (int k = nreq; k < nmax; ++k)
        if (slots[k] == Py_None)
            slots[k] = NULL;
    return 0;
}

static int rd_index(PyObject *obj, Py_ssize_t dflt, Py_ssize_t *value)
{
    if (obj == NULL) {
        *value = dflt;
        return 0;
    }
    *value = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
    return (*value == -1 && PyErr_Occurred()) ? -1 : 0;
}
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
{ext_get}    if (slots[{nin}] == NULL) {{
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
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = start; r < stop; ++r) {{
{batch_call}
    }}
    Py_END_ALLOW_THREADS
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
    else:
        call = f'    {spec.cname}({args}, out);'
        batch_call = f'        {spec.cname}({bargs}, out + r * {out_size});'
    quoted = ', '.join(f'"{x}"' for x in names)
    batch_names = [name for name, _ in spec.inputs] + ['out', 'start', 'stop']
    batch_names += ['f_ext'] if spec.ext_cname else []
    fields = {'py': spec.py, 'names': quoted, 'in_len': _c_list(in_len), 'nin': nin,
              'nslots': len(names), 'batch_names': ', '.join(f'"{x}"' for x in batch_names),
              'nbatch': len(batch_names), 'out_shape': _c_list(spec.out_shape),
              'out_ndim': len(spec.out_shape), 'ext_get': ext_get, 'ext_get_batch': ext_get_b,
              'call': call, 'batch_call': batch_call}
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
    return f"""
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
    return PyModule_Create(&rd_module);
}}
"""
