// Hdf5Writer: on-disk layout read back with the raw HDF5 C API (independent of our reader),
// misuse errors, and the silencing of HDF5's own error printing.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "hdf5_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::io {
namespace {

using testing::Hdf5Test;
using WriterTest = Hdf5Test;

// Reads dataset `name` with the raw C API: its dims and its elements (as complex, row-major
// buffer order).
struct RawComplex {
  std::vector<hsize_t> dims;
  std::vector<cplx> data;
};

RawComplex raw_read_complex(const std::string& file, const std::string& name) {
  RawComplex out;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0);
  const hid_t s = H5Dget_space(d);
  out.dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
  H5Sget_simple_extent_dims(s, out.dims.data(), nullptr);
  out.data.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(cplx));
  H5Tinsert(t, "r", 0, H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "i", sizeof(double), H5T_NATIVE_DOUBLE);
  EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data.data()), 0);
  H5Tclose(t);
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return out;
}

TEST_F(WriterTest, ComplexMatrixIsStoredRowMajorAsRowsByCols) {
  // 3 x 5: a transposed or column-major layout would show in the dims or the element order.
  CMatrix m(3, 5);
  for (Index r = 0; r < 3; ++r) {
    for (Index c = 0; c < 5; ++c) m(r, c) = cplx(double(r) * 8 + double(c), -double(c) / 4);
  }
  const std::string file = path("layout.h5");
  {
    Hdf5Writer w(file);
    w.write("/unitary", m);
    w.commit();
  }
  const RawComplex raw = raw_read_complex(file, "/unitary");
  ASSERT_EQ(raw.dims, (std::vector<hsize_t>{3, 5}));
  for (Index r = 0; r < 3; ++r) {
    for (Index c = 0; c < 5; ++c) {
      EXPECT_EQ(raw.data[static_cast<std::size_t>(r * 5 + c)], m(r, c)) << r << "," << c;
    }
  }
  // The file type is the compound {r: float64 LE, i: float64 LE}.
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, "/unitary", H5P_DEFAULT);
  const hid_t t = H5Dget_type(d);
  EXPECT_EQ(H5Tget_class(t), H5T_COMPOUND);
  ASSERT_EQ(H5Tget_nmembers(t), 2);
  for (unsigned k = 0; k < 2; ++k) {
    char* name = H5Tget_member_name(t, k);
    EXPECT_STREQ(name, k == 0 ? "r" : "i");
    H5free_memory(name);
    const hid_t mt = H5Tget_member_type(t, k);
    EXPECT_GT(H5Tequal(mt, H5T_IEEE_F64LE), 0);
    H5Tclose(mt);
  }
  EXPECT_EQ(H5Tget_member_offset(t, 1), sizeof(double));
  H5Tclose(t);
  H5Dclose(d);
  H5Fclose(f);
}

TEST_F(WriterTest, WritingADatasetTwiceIsAnErrorNamingPathAndFile) {
  const std::string file = path("twice.h5");
  Hdf5Writer w(file);
  w.write("/a/b", std::vector<double>{1.0});
  try {
    w.write("/a/b", std::vector<double>{2.0});
    FAIL() << "no exception";
  } catch (const InputError& e) {
    FAIL() << "an internal misuse must not be an InputError: " << e.what();
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("cannot write dataset '/a/b' to " + file + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find("already exists"), std::string::npos) << msg;
  }
  EXPECT_THROW(w.write("", std::vector<double>{}), Error);
  EXPECT_THROW(w.write("/", std::vector<double>{}), Error);
}

TEST_F(WriterTest, AttributeOnAMissingObjectIsAnError) {
  const std::string file = path("attr.h5");
  Hdf5Writer w(file);
  try {
    w.attribute("x", 1.0, "/missing");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "cannot write attribute 'x' on '/missing' in " + file +
                      ": no such group or dataset (",
                  0),
              0u)
        << e.what();
  }
}

TEST_F(WriterTest, HDF5ErrorPrintingIsSilencedAndRestored) {
  H5E_auto2_t before_func = nullptr;
  void* before_data = nullptr;
  ASSERT_GE(H5Eget_auto2(H5E_DEFAULT, &before_func, &before_data), 0);
  ASSERT_NE(before_func, nullptr) << "HDF5's default is to print; the test needs that";

  const std::string file = path("quiet.h5");
  Hdf5Writer w(file);
  w.write("/x", std::vector<double>{1.0});
  ::testing::internal::CaptureStderr();
  EXPECT_THROW(w.write("/x", std::vector<double>{1.0}), Error);
  EXPECT_THROW(w.attribute("a", 1.0, "/nothing/here"), Error);
  EXPECT_THROW(static_cast<void>(read_complex_matrix(file + ".absent", "/x")), InputError);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");

  H5E_auto2_t after_func = nullptr;
  void* after_data = nullptr;
  ASSERT_GE(H5Eget_auto2(H5E_DEFAULT, &after_func, &after_data), 0);
  EXPECT_EQ(after_func, before_func);
  EXPECT_EQ(after_data, before_data);
}

TEST_F(WriterTest, NothingCanBeWrittenAfterCommit) {
  const std::string file = path("done.h5");
  Hdf5Writer w(file);
  w.write_scalar("/x", 1.0);
  w.commit();
  EXPECT_TRUE(w.committed());
  EXPECT_THROW(w.write_scalar("/y", 2.0), Error);
  EXPECT_THROW(w.attribute("a", 1LL), Error);
  EXPECT_THROW(w.commit(), Error);
  EXPECT_TRUE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace qevolve::io
