#pragma once
// Small text helpers shared by the layers that read text (config values, MCA parameter files).
#include <string>
#include <string_view>

namespace qevolve {

/// `s` without leading and trailing blanks (spaces, tabs, carriage returns).
[[nodiscard]] std::string trim(std::string_view s);

}  // namespace qevolve
