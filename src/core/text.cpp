// Small text helpers (include/qevolve/text.hpp): trim, and the "did you mean" suggestions.
#include "qevolve/text.hpp"

#include <algorithm>
#include <vector>

namespace qevolve {
namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

int edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  // d[i][j]: distance between the first i characters of a and the first j of b.
  std::vector<int> d((n + 1) * (m + 1));
  auto at = [&](std::size_t i, std::size_t j) -> int& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      int v = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        v = std::min(v, at(i - 2, j - 2) + 1);
      at(i, j) = v;
    }
  }
  return at(n, m);
}

std::string suggest(std::string_view word, std::span<const std::string_view> candidates) {
  // Words longer than any key or value we know are not misspellings of one.
  if (word.size() > 64) return {};
  const int limit = std::max(1, std::min(3, static_cast<int>(word.size()) / 3));
  int best = limit + 1;
  std::string_view choice;
  for (const std::string_view c : candidates) {
    const int dist = edit_distance(word, c);
    if (dist < best) {
      best = dist;
      choice = c;
    }
  }
  return std::string(choice);
}

std::string join(std::span<const std::string_view> items) {
  std::string out;
  for (const std::string_view s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

std::string trim(std::string_view s) {
  constexpr std::string_view kBlanks = " \t\r";
  const auto b = s.find_first_not_of(kBlanks);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(kBlanks);
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace qevolve
