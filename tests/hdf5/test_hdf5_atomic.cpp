// Atomic output: temporary name, commit() by rename, cleanup without commit, a process killed
// mid-write, and the InputError texts for unwritable destinations.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>

#include "hdf5_test_util.hpp"
#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"

namespace qevolve::io {
namespace {

namespace fs = std::filesystem;
using testing::Hdf5Test;
using AtomicTest = Hdf5Test;

constexpr Index kBigRows = 1024;  // 1024 x 512 complex doubles = 8 MiB of raw data
constexpr Index kBigCols = 512;
constexpr std::uintmax_t kBigBytes = 1024ull * 512ull * 16ull;

std::string input_error(const std::string& final_path) {
  try {
    Hdf5Writer w(final_path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

/// Forks a child that writes an 8 MiB dataset to `final_path` and is SIGKILLed before
/// commit(); returns the child's pid after checking that it died of SIGKILL.
pid_t run_killed_writer(const std::string& final_path) {
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child == 0) {
    int code = 3;  // reached only if the writer threw
    try {
      Hdf5Writer w(final_path);
      w.write("/unitary", CMatrix(CMatrix::Constant(kBigRows, kBigCols, cplx(1.0, -1.0))));
      w.attribute("fidelity", 0.5);
      ::raise(SIGKILL);  // killed with the writer open: no destructor, no commit
      code = 4;
    } catch (...) {
    }
    ::_exit(code);
  }
  int status = 0;
  EXPECT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "child did not die of SIGKILL (exit code "
      << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << ")";
  return child;
}

TEST_F(AtomicTest, TemporaryNameIsFinalDotTmpDashPid) {
  const std::string file = path("out.h5");
  Hdf5Writer w(file);
  EXPECT_EQ(w.final_path(), file);
  EXPECT_EQ(w.temp_path(), file + ".tmp-" + std::to_string(::getpid()));
  EXPECT_TRUE(fs::exists(w.temp_path()));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(w.committed());
}

TEST_F(AtomicTest, CommitRenamesOntoTheFinalName) {
  const std::string file = path("out.h5");
  std::string temp;
  {
    Hdf5Writer w(file);
    temp = w.temp_path();
    w.write_scalar("/x", 1.0);
    w.commit();
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_TRUE(fs::exists(file));
  }
  EXPECT_TRUE(fs::exists(file));  // the destructor after commit() leaves the file alone
  EXPECT_EQ(entries(dir_), 1u);
}

TEST_F(AtomicTest, DestructorWithoutCommitRemovesTheTemporaryFile) {
  const std::string file = path("out.h5");
  std::string temp;
  {
    Hdf5Writer w(file);
    temp = w.temp_path();
    w.write("/unitary", CMatrix(CMatrix::Identity(4, 4)));
    w.attribute("fidelity", 1.0);
    ASSERT_TRUE(fs::exists(temp));
  }
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_FALSE(fs::exists(file));
  EXPECT_EQ(entries(dir_), 0u);
}

TEST_F(AtomicTest, AnExceptionDuringWritingLeavesNoFile) {
  const std::string file = path("out.h5");
  try {
    Hdf5Writer w(file);
    w.write_scalar("/x", 1.0);
    w.write_scalar("/x", 2.0);  // throws: already exists
    w.commit();
    FAIL() << "no exception";
  } catch (const Error&) {
  }
  EXPECT_EQ(entries(dir_), 0u);
}

TEST_F(AtomicTest, CommitReplacesAnExistingFile) {
  const std::string file = path("out.h5");
  write_text(file, "old result\n");
  Hdf5Writer w(file);
  w.write("/u", CMatrix(CMatrix::Constant(2, 2, cplx(0.5, 0.25))));
  EXPECT_EQ(read_text(file), "old result\n");  // untouched until commit()
  w.commit();
  EXPECT_TRUE(read_complex_matrix(file, "/u") == CMatrix::Constant(2, 2, cplx(0.5, 0.25)));
  EXPECT_EQ(entries(dir_), 1u);
}

TEST_F(AtomicTest, KilledBeforeCommitLeavesNoFileUnderTheFinalName) {
  const std::string file = path("killed.h5");
  const pid_t child = run_killed_writer(file);
  EXPECT_FALSE(fs::exists(file));
  // The child did get far: its temporary file holds the 8 MiB dataset.
  const std::string temp = file + ".tmp-" + std::to_string(child);
  ASSERT_TRUE(fs::exists(temp));
  EXPECT_GE(fs::file_size(temp), kBigBytes);
  fs::remove(temp);
}

TEST_F(AtomicTest, KilledBeforeCommitLeavesAnExistingFileIntact) {
  const std::string file = path("killed.h5");
  write_text(file, "previous complete result\n");
  const pid_t child = run_killed_writer(file);
  EXPECT_EQ(read_text(file), "previous complete result\n");
  fs::remove(file + ".tmp-" + std::to_string(child));
}

TEST_F(AtomicTest, UnwritableDestinationsAreInputErrorsWithTheReason) {
  const std::string missing = path("no_such_folder/out.h5");
  EXPECT_EQ(input_error(missing), "cannot write " + missing + ": No such file or directory");

  write_text(path("a_file"), "x");
  const std::string under_file = path("a_file/out.h5");
  EXPECT_EQ(input_error(under_file), "cannot write " + under_file + ": Not a directory");

  fs::create_directory(path("a_folder"));
  EXPECT_EQ(input_error(path("a_folder")), "cannot write " + path("a_folder") + ": Is a directory");

  EXPECT_EQ(input_error(""), "cannot write an HDF5 file: the output path is empty");
  EXPECT_EQ(entries(dir_), 2u);  // a_file and a_folder: no temporary file left anywhere
}

TEST_F(AtomicTest, ReadOnlyFolderIsAnInputError) {
  if (::geteuid() == 0) {
    GTEST_SKIP() << "running as root, which may write into a read-only folder: the "
                    "'Permission denied' case cannot be produced here";
  }
  const fs::path ro = dir_ / "ro";
  fs::create_directory(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string file = (ro / "out.h5").string();
  EXPECT_EQ(input_error(file), "cannot write " + file + ": Permission denied");
}

}  // namespace
}  // namespace qevolve::io
