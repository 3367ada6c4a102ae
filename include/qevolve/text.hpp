#pragma once
// Small text helpers shared by the layers that read text (config values, MCA parameter files,
// command lines): trimming, and the "did you mean" of misspelt keys, values and flags.
#include <span>
#include <string>
#include <string_view>

namespace qevolve {

/// `s` without leading and trailing blanks (spaces, tabs, carriage returns).
[[nodiscard]] std::string trim(std::string_view s);

/// Optimal-string-alignment distance (insertions, deletions, substitutions and transpositions
/// of adjacent characters each cost 1), ignoring ASCII case.
[[nodiscard]] int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` if it is close enough to be a plausible misspelling
/// (distance <= max(1, min(3, |word| / 3)); ties: the first listed), else an empty string.
[[nodiscard]] std::string suggest(std::string_view word, std::span<const std::string_view> candidates);

/// "a, b, c".
[[nodiscard]] std::string join(std::span<const std::string_view> items);

/// "1 input", "4 inputs"; `many` for irregular plurals.
template <typename Count>
[[nodiscard]] std::string counted(Count n, const std::string& one, const std::string& many = {}) {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

/// "there is 1 pulse", "there are 3 pulses" for a list key spelt in the plural ("pulses").
[[nodiscard]] inline std::string there_are(std::size_t n, const std::string& plural) {
  const std::string one = plural.ends_with('s') ? plural.substr(0, plural.size() - 1) : plural;
  return std::string(n == 1 ? "is " : "are ") + counted(n, one, plural);
}

}  // namespace qevolve
