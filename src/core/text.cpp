// Small text helpers (include/qevolve/text.hpp).
#include "qevolve/text.hpp"

namespace qevolve {

std::string trim(std::string_view s) {
  constexpr std::string_view kBlanks = " \t\r";
  const auto b = s.find_first_not_of(kBlanks);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(kBlanks);
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace qevolve
