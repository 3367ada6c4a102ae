// read_complex_matrix: round trip with Hdf5Writer and every InputError, with exact messages.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hdf5_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::io {
namespace {

using testing::Hdf5Test;
using ReadTest = Hdf5Test;

std::string read_error(const std::string& file, const std::string& dataset) {
  try {
    static_cast<void>(read_complex_matrix(file, dataset));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

TEST_F(ReadTest, RoundTripIsBitExact) {
  // Random entries: binary HDF5 float64 storage must reproduce every bit.
  const CMatrix c = CMatrix::Random(7, 3);
  const RMatrix r = RMatrix::Random(4, 6);
  const std::string file = path("round.h5");
  {
    Hdf5Writer w(file);
    w.write("/checkpoint/u", c);
    w.write("/r", r);
    w.write("/row", CMatrix(CMatrix::Constant(1, 5, cplx(0.0, 1.0))));
    w.write("/empty", CMatrix(0, 4));
    w.commit();
  }
  const CMatrix c_back = read_complex_matrix(file, "/checkpoint/u");
  ASSERT_EQ(c_back.rows(), 7);
  ASSERT_EQ(c_back.cols(), 3);
  EXPECT_TRUE(c_back == c);

  const CMatrix r_back = read_complex_matrix(file, "/r");  // a float64 dataset: real matrix
  ASSERT_EQ(r_back.rows(), 4);
  ASSERT_EQ(r_back.cols(), 6);
  EXPECT_TRUE(r_back.real() == r);
  EXPECT_TRUE(r_back.imag().isZero(0.0));

  EXPECT_TRUE(read_complex_matrix(file, "row") == CMatrix::Constant(1, 5, cplx(0.0, 1.0)));
  const CMatrix empty = read_complex_matrix(file, "/empty");
  EXPECT_EQ(empty.rows(), 0);
  EXPECT_EQ(empty.cols(), 4);
}

TEST_F(ReadTest, ProblemsAreInputErrorsNamingFileAndDataset) {
  const std::string file = path("bad.h5");
  {
    Hdf5Writer w(file);
    w.write("/g/vec", CVector(CVector::Ones(3)));
    w.write("/ints", std::vector<long long>{1, 2});
    w.write("/names", std::vector<std::string>{"a"});
    w.write_scalar("/scalar", 1.0);
    w.commit();
  }
  const std::string expected_type =
      " (expected a complex compound {r, i} of float64 or a float64 matrix)";
  EXPECT_EQ(read_error(file, "/nope"), file + ": /nope: no such dataset");
  EXPECT_EQ(read_error(file, "/nope/deeper"), file + ": /nope/deeper: no such dataset");
  EXPECT_EQ(read_error(file, "/g"),
            file + ": /g: is not a dataset (it is a group or a named datatype)");
  EXPECT_EQ(read_error(file, "/g/vec"),
            file + ": /g/vec: has rank 1 (expected a [rows, cols] matrix)");
  EXPECT_EQ(read_error(file, "/scalar"),
            file + ": /scalar: has rank 0 (expected a [rows, cols] matrix)");
  EXPECT_EQ(read_error(file, "/ints"), file + ": /ints: has element type integer" + expected_type);
  EXPECT_EQ(read_error(file, "/names"),
            file + ": /names: has element type string" + expected_type);

  const std::string missing = path("missing.h5");
  EXPECT_EQ(read_error(missing, "/u"),
            missing + ": cannot open HDF5 file: No such file or directory");
  const std::string text = path("text.h5");
  write_text(text, "this is not HDF5\n");
  EXPECT_EQ(read_error(text, "/u"), text + ": not an HDF5 file");
  EXPECT_EQ(read_error(dir_.string(), "/u"),
            dir_.string() + ": cannot open HDF5 file: Is a directory");
}

}  // namespace
}  // namespace qevolve::io
