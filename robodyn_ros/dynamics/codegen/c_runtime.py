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
C helpers shared by every generated module: argument checks and output allocation.

``rd_get`` checks that an argument is a C-contiguous float64 array of an
exact shape and returns its data (numpy's C API for ndarrays in single-state
entry points, the buffer protocol otherwise); ``rd_new`` allocates an output;
``rd_parse`` sorts positional and keyword arguments of a
``METH_FASTCALL | METH_KEYWORDS`` call; ``rd_non_finite`` and
``rd_no_solution`` raise the errors of a NaN or infinite input and of
friction equations without a solution.
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

/* ValueError naming the first NaN or infinite input entry of a single-state call. */
static void rd_non_finite(const char *fname, const char *const *names, int nin,
                          const Py_ssize_t *len, const double *const *ptr, const double *fext)
{
    for (int k = 0; k <= nin; ++k) {
        const double *p = k < nin ? ptr[k] : fext;
        Py_ssize_t count = k < nin ? len[k] : 6;
        for (Py_ssize_t j = 0; p != NULL && j < count; ++j)
            if (!isfinite(p[j])) {
                PyErr_Format(PyExc_ValueError, "%s: %s has a NaN or infinite value at "
                             "index %zd", fname, k < nin ? names[k] : "f_ext", j);
                return;
            }
    }
    PyErr_Format(PyExc_ValueError, "%s: an input has a NaN or infinite value", fname);
}

/* ForwardDynamicsError (RuntimeError without the package): no acceleration solves the
   friction equations (row < 0: a single-state call). */
static void rd_no_solution(const char *fname, Py_ssize_t row)
{
    PyObject *exc = NULL;
    PyObject *mod = PyImport_ImportModule("robodyn_ros.dynamics.forward");
    if (mod != NULL) {
        exc = PyObject_GetAttrString(mod, "ForwardDynamicsError");
        Py_DECREF(mod);
    }
    if (exc == NULL) {
        PyErr_Clear();
        exc = PyExc_RuntimeError;
        Py_INCREF(exc);
    }
    if (row < 0)
        PyErr_Format(exc, "%s: the friction equations did not converge", fname);
    else
        PyErr_Format(exc, "%s: the friction equations did not converge for row %zd",
                     fname, row);
    Py_DECREF(exc);
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
