// Shared helpers of the HDF5 tests: a fresh scratch folder per test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace qevolve::io::testing {

/// Gives each test an empty folder under the system temp folder, removed afterwards.
class Hdf5Test : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("qevolve_hdf5_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" +
            info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(dir_, ignored);
  }

  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static void write_text(const std::string& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
  }
  static std::string read_text(const std::string& file) {
    std::string text(static_cast<std::size_t>(std::filesystem::file_size(file)), '\0');
    std::ifstream(file, std::ios::binary)
        .read(text.data(), static_cast<std::streamsize>(text.size()));
    return text;
  }

  std::filesystem::path dir_;
};

}  // namespace qevolve::io::testing
