// One table of names per enum of the config (docs/architecture.md "Where a change goes"): every
// value with its config spelling, read by the loader (io), its messages, the run summary and the
// HDF5 attributes. The pulse shape's rows also carry the shape's key family and keys, read by
// the loader (src/io/config_pulses.cpp) and by the pulse layer (resolution, parameter names).
// The tables are in src/core/names.cpp; target gate names are in qevolve/gates.hpp.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "qevolve/config.hpp"

namespace qevolve {

/// The keys a pulse takes besides duration (docs/pulses.md "Shapes"): none (length), two of
/// {duration, plateau, ramp} (ramps), two of {duration, sigma, c} (gauss), all three of
/// {duration, sigma, c} (edges), a list of values (values).
enum class ShapeFamily { length, ramps, gauss, edges, values };

/// A row of an enum's table: a value and its config spelling.
template <typename E>
struct EnumRow {
  E value;
  const char* name;
};

/// A pulse shape's row. drag has no keys of its own: a drag pulse takes its base's family and
/// keys (shape_row(shape, base)).
template <>
struct EnumRow<Shape> {
  Shape value;
  const char* name;
  ShapeFamily family;
  /// The shape keys besides duration, as messages list them (nullptr: none).
  std::array<const char*, 2> keys;
  bool drag_base;  ///< may be the `base` of a drag pulse
};

/// The table of E, in the order messages list the names.
template <typename E>
[[nodiscard]] std::span<const EnumRow<E>> enum_table();
template <> std::span<const EnumRow<ModeType>> enum_table<ModeType>();
template <> std::span<const EnumRow<ModeRole>> enum_table<ModeRole>();
template <> std::span<const EnumRow<Shape>> enum_table<Shape>();
template <> std::span<const EnumRow<FrequencyMode>> enum_table<FrequencyMode>();
template <> std::span<const EnumRow<Solver>> enum_table<Solver>();
template <> std::span<const EnumRow<Splitting>> enum_table<Splitting>();
template <> std::span<const EnumRow<Basis>> enum_table<Basis>();
template <> std::span<const EnumRow<Frame>> enum_table<Frame>();
template <> std::span<const EnumRow<Precision>> enum_table<Precision>();
template <> std::span<const EnumRow<ComputeDevice>> enum_table<ComputeDevice>();
template <> std::span<const EnumRow<InitialStates::Kind>> enum_table<InitialStates::Kind>();
template <> std::span<const EnumRow<Compensation>> enum_table<Compensation>();
template <> std::span<const EnumRow<OptimizerMethod>> enum_table<OptimizerMethod>();
template <> std::span<const EnumRow<FilterType>> enum_table<FilterType>();
template <> std::span<const EnumRow<EnsembleObjective>> enum_table<EnsembleObjective>();
template <> std::span<const EnumRow<EnsembleDistribution>> enum_table<EnsembleDistribution>();

/// The row of `value`; a row named "?" for a value its table does not spell (InitialStates::
/// Kind::list, FrequencyMode::value). A table that spells every value lists them in enum order
/// (checked in src/core/names.cpp): one look-up.
template <typename E>
[[nodiscard]] const EnumRow<E>& enum_row(E value) {
  static constexpr EnumRow<E> kUnknown = [] {
    EnumRow<E> row{};
    row.name = "?";
    return row;
  }();
  const std::span<const EnumRow<E>> rows = enum_table<E>();
  const auto k = static_cast<std::size_t>(value);
  if (k < rows.size() && rows[k].value == value) return rows[k];
  for (const EnumRow<E>& row : rows)
    if (row.value == value) return row;
  return kUnknown;
}

/// The config spelling of `value`: "trotter", "rampcos", "fluxonium", ...
template <typename E>
[[nodiscard]] const char* enum_name(E value) {
  return enum_row(value).name;
}

/// Every spelling of E, in table order.
template <typename E>
[[nodiscard]] std::vector<std::string_view> enum_names() {
  std::vector<std::string_view> names;
  for (const EnumRow<E>& row : enum_table<E>()) names.emplace_back(row.name);
  return names;
}

/// The value spelt `name`, if any.
template <typename E>
[[nodiscard]] std::optional<E> enum_value(std::string_view name) {
  for (const EnumRow<E>& row : enum_table<E>())
    if (name == row.name) return row.value;
  return std::nullopt;
}

/// The row whose family and keys a pulse of `shape` takes: drag's base's, else its own.
[[nodiscard]] inline const EnumRow<Shape>& shape_row(Shape shape, Shape base) {
  return enum_row(shape == Shape::drag ? base : shape);
}

/// Whether `key` (ramp, plateau, sigma, c, values) is one of the row's shape keys.
[[nodiscard]] inline bool takes_key(const EnumRow<Shape>& row, std::string_view key) {
  for (const char* k : row.keys)
    if (k != nullptr && key == k) return true;
  return false;
}

}  // namespace qevolve
