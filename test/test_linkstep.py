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

"""Element-wise kernels of one link's step: identities and batch independence."""

import numpy as np
from robodyn_ros.parallel.linkstep import (acc_matrix, const_mat_vec, cross, mat_t_vec,
                                           mat_vec)


def test_products_match_numpy():
    """Cross products and matrix-vector products equal numpy's."""
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(50, 3)), rng.normal(size=(50, 3))
    m = rng.normal(size=(50, 3, 3))
    c = rng.normal(size=(3, 3))
    assert np.allclose(cross(a, b), np.cross(a, b), atol=1e-14)
    assert np.allclose(mat_vec(m, a), np.einsum('nij,nj->ni', m, a), atol=1e-14)
    assert np.allclose(mat_t_vec(m, a), np.einsum('nji,nj->ni', m, a), atol=1e-14)
    assert np.allclose(const_mat_vec(c, a), a @ c.T, atol=1e-14)


def test_acc_matrix_is_the_acceleration_difference():
    """L r = dw x r + w x (w x r) (seed 004 eq. 2.22-2.27)."""
    rng = np.random.default_rng(1)
    w, dw, r = (rng.normal(size=(40, 3)) for _ in range(3))
    lam = acc_matrix(w, dw)
    assert np.allclose(mat_vec(lam, r), np.cross(dw, r) + np.cross(w, np.cross(w, r)),
                       atol=1e-13)


def test_results_do_not_depend_on_the_batch():
    """One row alone gives the same bits as inside a batch (what the workers rely on)."""
    rng = np.random.default_rng(2)
    w, dw, r = (rng.normal(size=(64, 3)) for _ in range(3))
    m = rng.normal(size=(64, 3, 3))
    full = mat_vec(acc_matrix(w, dw), r) + mat_t_vec(m, cross(w, r))
    for k in (0, 17, 63):
        one = mat_vec(acc_matrix(w[k:k + 1], dw[k:k + 1]), r[k:k + 1]) + mat_t_vec(
            m[k:k + 1], cross(w[k:k + 1], r[k:k + 1]))
        assert np.array_equal(one[0], full[k])
