// The compiled open step (lindblad.hpp) for one column count: the doubled-register geometry of
// every gate application, the dissipator exponentials, and the per-step gate buffer layout.
// Shared by the forward pass (lindblad.cpp) and the checkpointed adjoint (adjoint_lindblad.cpp).
#pragma once

#include <vector>

#include "lindblad.hpp"
#include "qevolve/backend/backend.hpp"
#include "qevolve/backend/local_gate.hpp"

namespace qevolve::solver {

/// One gate application of the open step, in application order.
struct DensityApp {
  enum class Kind { row, column, dissipator } kind = Kind::row;
  int set = 0;    ///< unitary gate set (row / column)
  int gate = 0;   ///< gate index in its set (row / column), or dissipator index
  int stage = 0;  ///< the stage it belongs to (dissipators: index into DensityPlan::fracs via frac_index)
  int frac_index = 0;  ///< dissipators: which distinct fraction
};

class DensityPlan {
 public:
  DensityPlan(const DensityEvolution& job, Index columns);

  [[nodiscard]] Index width() const { return width_; }
  [[nodiscard]] Index num_blocks() const { return num_blocks_; }
  [[nodiscard]] Index first_column(Index b) const { return b * width_; }
  [[nodiscard]] Index columns(Index b) const { return b + 1 == num_blocks_ ? last_width_ : width_; }
  /// The gate applications of one step, first applied first.
  [[nodiscard]] const std::vector<DensityApp>& apps() const { return apps_; }
  [[nodiscard]] const backend::GateGeometry& geometry(Index block, std::size_t app) const {
    return (block + 1 == num_blocks_ ? geo_last_ : geo_full_)[app];
  }
  /// Doubles per step of unitary gate data (every set's gates, then their conjugates).
  [[nodiscard]] std::size_t per_step() const { return per_step_; }
  /// Fills one step's unitary gate data for coefficients c.
  void compute_step(const std::vector<double>& c, double* step) const;
  /// The gate of an application inside one step's data (row: G, column: conj(G)), or the
  /// dissipator exponential exp(L_k frac dt); split re/im row-major.
  [[nodiscard]] const double* matrix(const DensityApp& a, const double* step) const;
  /// Its size g.
  [[nodiscard]] int size(const DensityApp& a) const;
  /// Flops of one step on `amplitudes` numbers (D^2 x columns): the work backend::worth_threads
  /// weighs.
  [[nodiscard]] double step_flops(Index amplitudes) const;
  /// Offset of a unitary application's g x g block inside its set's step data (row or column).
  [[nodiscard]] std::size_t set_offset(int set) const { return set_offset_[static_cast<std::size_t>(set)]; }
  /// Dissipators: the inverse exp(-L_k frac dt) (split re/im row-major).
  [[nodiscard]] const double* dissipator_inverse(const DensityApp& a) const;
  [[nodiscard]] const std::vector<double>& fracs() const { return fracs_; }

  /// The open step as a gate schedule on the doubled register (backend.hpp), so that a gate
  /// executor applies it: every application in order, its matrix in an executor step buffer of
  /// schedule().step_size numbers = one step's unitary data (per_step(), compute_step) followed
  /// by the dissipator exponentials (constant: fill_static once per buffer slot).
  [[nodiscard]] backend::GateSchedule schedule() const;
  /// Writes the dissipator exponentials into the static tail of `slots` executor step buffers.
  void fill_static(double* buffer, int slots) const;
  /// schedule().step_size: per_step() and the dissipator exponentials.
  [[nodiscard]] std::size_t schedule_step_size() const { return per_step_ + static_size_; }

 private:
  const DensityEvolution* job_;
  Index width_ = 1, num_blocks_ = 0, last_width_ = 0;
  std::vector<DensityApp> apps_;
  std::vector<backend::GateGeometry> geo_full_, geo_last_;
  std::vector<std::size_t> set_offset_;
  std::size_t per_step_ = 0;
  std::size_t static_size_ = 0;  ///< numbers of all dissipator exponentials (every fraction)
  std::vector<double> fracs_;                              ///< distinct dissipator fractions
  std::vector<std::vector<std::vector<double>>> diss_, diss_inv_;  ///< [frac][dissipator]
};

}  // namespace qevolve::solver
