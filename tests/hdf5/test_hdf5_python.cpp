// Interoperability with an independent HDF5 client: h5py (QEVOLVE_PYTHON) reads every kind of
// dataset and attribute Hdf5Writer writes (check_hdf5_output.py asserts dtype, shape, values),
// and read_complex_matrix reads matrices that h5py wrote.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "hdf5_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::io {
namespace {

using testing::Hdf5Test;
using PythonTest = Hdf5Test;

const std::string kPython = QEVOLVE_PYTHON;
const std::string kChecker = std::string(QEVOLVE_SOURCE_DIR) + "/tests/hdf5/check_hdf5_output.py";

struct CommandResult {
  int status = -1;  // exit code, or -1 if it did not exit normally
  std::string output;
};

CommandResult run(const std::string& command) {
  CommandResult result;
  std::fflush(nullptr);
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) result.output += buffer;
  const int status = ::pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.status = WEXITSTATUS(status);
  return result;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

/// Empty if the interpreter with h5py and numpy is usable, else why not.
std::string python_unavailable() {
  if (kPython.empty() || kPython.find("NOTFOUND") != std::string::npos) {
    return "QEVOLVE_PYTHON is not set (no python3 found at configure time)";
  }
  if (::access(kPython.c_str(), X_OK) != 0) return kPython + " is not executable";
  const CommandResult probe = run(quoted(kPython) + " -c 'import h5py, numpy'");
  if (probe.status != 0) return kPython + " cannot import h5py/numpy: " + probe.output;
  return {};
}

#define REQUIRE_H5PY()                                                               \
  do {                                                                               \
    const std::string why = python_unavailable();                                    \
    if (!why.empty()) GTEST_SKIP() << "h5py interoperability not checked: " << why; \
  } while (false)

// Keep in sync with check() in check_hdf5_output.py. Dyadic values: exact in binary.
void write_every_kind(const std::string& file) {
  Hdf5Writer w(file);
  CMatrix u(3, 4);
  for (Index r = 0; r < 3; ++r) {
    for (Index c = 0; c < 4; ++c) {
      u(r, c) = cplx(double(r) + double(c) / 8, 0.5 - double(r * c));
    }
  }
  w.write("/unitary", u);
  RMatrix m(2, 5);
  for (Index r = 0; r < 2; ++r) {
    for (Index c = 0; c < 5; ++c) m(r, c) = 10.0 * double(r) + double(c) + 0.25;
  }
  w.write("/real/matrix", m);
  w.write_scalar("/qubits/q0/f01_bare", 4.25);
  CVector cv(3);
  for (Index k = 0; k < 3; ++k) cv(k) = cplx(double(k), -double(k) / 4);
  w.write("qubits/q0/cvec", cv);  // relative path: from the root
  RVector rv(4);
  for (Index k = 0; k < 4; ++k) rv(k) = 1.5 * double(k) - 1;
  w.write("/rvec", rv);
  w.write("/history/infidelity", std::vector<double>{1.0, 0.5, 0.125, std::ldexp(1.0, -1000)});
  w.write("/history/iteration",
          std::vector<long long>{0, 1, -7, 1LL << 40, std::numeric_limits<long long>::max(),
                                 std::numeric_limits<long long>::min()});
  w.write("/labels", std::vector<std::string>{"00", "01", "10", "11"});
  w.write("/gradient_names", std::vector<std::string>{"pulses[2].amplitude",
                                                      "device.qubits[q0].el",
                                                      "\u03c8-\u00e9tat", ""});
  w.write("/empty", std::vector<double>{});
  w.write("/empty_matrix", CMatrix(0, 3));

  w.attribute("fidelity", 0.5);
  w.attribute("fidelity", 0.96875);  // replaces the first value
  w.attribute("steps", 4000LL);
  w.attribute("solver", std::string("magnus"));
  w.attribute("config", std::string("device:\n  qubits: [q0]\n# \u00fcn\u00efc\u00f8de\n"));
  w.attribute("dims", std::vector<long long>{3, 3, 2});
  w.attribute("none", std::vector<long long>{});
  w.attribute("basis", std::string("dressed"), "/unitary");
  w.attribute("index", -2LL, "/qubits/q0");
  w.commit();
}

TEST_F(PythonTest, H5pyReadsEveryKindOfDatasetAndAttribute) {
  REQUIRE_H5PY();
  const std::string file = path("every_kind.h5");
  write_every_kind(file);
  const CommandResult r = run(quoted(kPython) + " " + quoted(kChecker) + " check " + quoted(file));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("OK: all checks passed"), std::string::npos) << r.output;
}

TEST_F(PythonTest, ReadsMatricesWrittenByH5py) {
  REQUIRE_H5PY();
  const std::string file = path("from_h5py.h5");
  const CommandResult r = run(quoted(kPython) + " " + quoted(kChecker) + " make " + quoted(file));
  ASSERT_EQ(r.status, 0) << r.output;

  // complex128 [2, 3]: entry (r, c) = (r + c/4) - i (c + 1)/2
  const CMatrix c = read_complex_matrix(file, "/c");
  ASSERT_EQ(c.rows(), 2);
  ASSERT_EQ(c.cols(), 3);
  for (Index i = 0; i < 2; ++i) {
    for (Index j = 0; j < 3; ++j) {
      EXPECT_EQ(c(i, j), cplx(double(i) + double(j) / 4, -double(j + 1) / 2)) << i << "," << j;
    }
  }
  // complex64 (compound of float32 r, i): converted, exact for these values.
  CMatrix c64(2, 2);
  c64 << cplx(0.5, 1.0), cplx(-1.25, 0.0), cplx(0.0, 2.0), cplx(3.0, 0.0);
  EXPECT_TRUE(read_complex_matrix(file, "/c64") == c64);
  // float64 [3, 2]: entry (r, c) = r - 2c, as a real matrix.
  const CMatrix f = read_complex_matrix(file, "/f");
  ASSERT_EQ(f.rows(), 3);
  ASSERT_EQ(f.cols(), 2);
  for (Index i = 0; i < 3; ++i) {
    for (Index j = 0; j < 2; ++j) EXPECT_EQ(f(i, j), cplx(double(i - 2 * j), 0.0));
  }
  CMatrix f32(1, 2);
  f32 << 0.75, -8.0;
  EXPECT_TRUE(read_complex_matrix(file, "/f32") == f32);
  EXPECT_TRUE(read_complex_matrix(file, "/g/inner") == CMatrix::Constant(1, 1, cplx(1.0, 1.0)));

  EXPECT_THROW(static_cast<void>(read_complex_matrix(file, "/i")), InputError);
  EXPECT_THROW(static_cast<void>(read_complex_matrix(file, "/v")), InputError);
  EXPECT_THROW(static_cast<void>(read_complex_matrix(file, "/s")), InputError);
  EXPECT_THROW(static_cast<void>(read_complex_matrix(file, "/g")), InputError);
}

}  // namespace
}  // namespace qevolve::io
