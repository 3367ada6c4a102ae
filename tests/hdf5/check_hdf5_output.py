#!/usr/bin/env python3
"""Independent h5py check of qevolve's HDF5 layer (used by tests/hdf5/test_hdf5_python.cpp).

  check_hdf5_output.py check FILE   asserts dtype, shape and value of every dataset/attribute
                                    that the C++ test writes with Hdf5Writer (see
                                    write_every_kind() in test_hdf5_python.cpp: the formulas
                                    below must stay in sync with it)
  check_hdf5_output.py make FILE    writes a file with h5py for read_complex_matrix to read

All values are dyadic rationals (exact in binary floating point), so equality is exact: any
difference is a layout or conversion bug, not rounding. Prints "OK: ..." and exits 0 on success.
"""
import sys

import h5py
import numpy as np


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def expect_array(obj, name, dtype, shape, values):
    arr = obj[()]
    expect(obj.dtype == np.dtype(dtype), f"{name}: dtype {obj.dtype}, expected {dtype}")
    expect(obj.shape == shape, f"{name}: shape {obj.shape}, expected {shape}")
    expect(np.array_equal(arr, np.asarray(values, dtype=dtype)),
           f"{name}: values\n{arr}\nexpected\n{np.asarray(values, dtype=dtype)}")


def expect_strings(obj, name, values):
    info = h5py.check_string_dtype(obj.dtype)
    expect(info is not None, f"{name}: not a string dtype ({obj.dtype})")
    expect(info.encoding == "utf-8", f"{name}: encoding {info.encoding}, expected utf-8")
    expect(info.length is None, f"{name}: fixed length {info.length}, expected variable")
    expect(obj.shape == (len(values),), f"{name}: shape {obj.shape}")
    got = [s.decode("utf-8") if isinstance(s, bytes) else s for s in obj[()]]
    expect(got == values, f"{name}: {got!r}, expected {values!r}")


def check(path):
    with h5py.File(path, "r") as f:
        names = []
        f.visit(names.append)
        expected_names = sorted([
            "unitary", "real", "real/matrix", "qubits", "qubits/q0", "qubits/q0/f01_bare",
            "qubits/q0/cvec", "rvec", "history", "history/infidelity", "history/iteration",
            "labels", "gradient_names", "empty", "empty_matrix",
        ])
        expect(sorted(names) == expected_names, f"objects {sorted(names)}")

        # CMatrix 3 x 4, entry (r, c) = (r + c/8) + i (1/2 - r c), stored [row][col].
        u = [[complex(r + c / 8, 0.5 - r * c) for c in range(4)] for r in range(3)]
        expect_array(f["unitary"], "/unitary", "complex128", (3, 4), u)
        expect(f["unitary"][1, 3] == complex(1.375, -2.5), "/unitary[1, 3] (row-major)")
        # The stored type really is the compound {r, i} of float64.
        tid = f["unitary"].id.get_type()
        expect(tid.get_class() == h5py.h5t.COMPOUND and tid.get_nmembers() == 2,
               "/unitary: not a 2-member compound")
        expect([tid.get_member_name(k) for k in range(2)] == [b"r", b"i"], "/unitary: members")
        expect(tid.get_size() == 16 and tid.get_member_offset(1) == 8, "/unitary: layout")

        # RMatrix 2 x 5, entry (r, c) = 10 r + c + 1/4.
        m = [[10 * r + c + 0.25 for c in range(5)] for r in range(2)]
        expect_array(f["real/matrix"], "/real/matrix", "float64", (2, 5), m)

        expect_array(f["qubits/q0/f01_bare"], "/qubits/q0/f01_bare", "float64", (), 4.25)
        expect_array(f["qubits/q0/cvec"], "/qubits/q0/cvec", "complex128", (3,),
                     [complex(k, -k / 4) for k in range(3)])
        expect_array(f["rvec"], "/rvec", "float64", (4,), [1.5 * k - 1 for k in range(4)])
        expect_array(f["history/infidelity"], "/history/infidelity", "float64", (4,),
                     [1.0, 0.5, 0.125, 2.0 ** -1000])
        expect_array(f["history/iteration"], "/history/iteration", "int64", (6,),
                     [0, 1, -7, 2 ** 40, 2 ** 63 - 1, -2 ** 63])
        expect_strings(f["labels"], "/labels", ["00", "01", "10", "11"])
        expect_strings(f["gradient_names"], "/gradient_names",
                       ["pulses[2].amplitude", "device.qubits[q0].el", "\u03c8-\u00e9tat", ""])
        expect_array(f["empty"], "/empty", "float64", (0,), [])
        expect_array(f["empty_matrix"], "/empty_matrix", "complex128", (0, 3),
                     np.zeros((0, 3)))

        a = f.attrs
        expect(sorted(a.keys()) == ["config", "dims", "fidelity", "none", "solver", "steps"],
               f"root attributes {sorted(a.keys())}")
        expect(a["fidelity"] == 0.96875 and a["fidelity"].dtype == np.float64,
               f"fidelity {a['fidelity']!r} (the second write must replace the first)")
        expect(a["steps"] == 4000 and a["steps"].dtype == np.int64, f"steps {a['steps']!r}")
        expect(a["solver"] == "magnus", f"solver {a['solver']!r}")
        expect(a["config"] == "device:\n  qubits: [q0]\n# \u00fcn\u00efc\u00f8de\n",
               f"config {a['config']!r}")
        expect(isinstance(a["dims"], np.ndarray) and a["dims"].dtype == np.int64
               and a["dims"].tolist() == [3, 3, 2], f"dims {a['dims']!r}")
        expect(isinstance(a["none"], np.ndarray) and a["none"].shape == (0,)
               and a["none"].dtype == np.int64, f"none {a['none']!r}")
        expect(dict(f["unitary"].attrs) == {"basis": "dressed"}, "/unitary attributes")
        q0 = f["qubits/q0"].attrs
        expect(list(q0.keys()) == ["index"] and q0["index"] == -2, "/qubits/q0 attributes")
    print("OK: all checks passed")


def make(path):
    with h5py.File(path, "w") as f:
        # entry (r, c) = (r + c/4) - i (c + 1)/2
        f["c"] = np.array([[complex(r + c / 4, -(c + 1) / 2) for c in range(3)]
                           for r in range(2)], dtype=np.complex128)
        f["c64"] = np.array([[0.5 + 1j, -1.25], [2.0j, 3.0]], dtype=np.complex64)
        f["f"] = np.array([[r - 2 * c for c in range(2)] for r in range(3)], dtype=np.float64)
        f["f32"] = np.array([[0.75, -8.0]], dtype=np.float32)
        f["i"] = np.arange(4, dtype=np.int64).reshape(2, 2)
        f["v"] = np.ones(3, dtype=np.complex128)
        f["g/inner"] = np.array([[1.0 + 1.0j]])
        f["s"] = np.array([b"a", b"b"], dtype=h5py.string_dtype("utf-8"))
    print("OK: written")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "make"):
        sys.exit("usage: check_hdf5_output.py check|make FILE")
    (check if sys.argv[1] == "check" else make)(sys.argv[2])
