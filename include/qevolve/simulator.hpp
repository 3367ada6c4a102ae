// The cached simulator (issue "closed-system evolution"): built once from a device, a pulse
// schedule and the evolution options; evaluating it for new pulse parameters reuses every
// static factor (exponentials of static local terms, eigensystems of drive operators, the
// Trotter gate plan and index maps).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qevolve/config.hpp"
#include "qevolve/device.hpp"
#include "qevolve/pulse.hpp"
#include "qevolve/types.hpp"

namespace qevolve::solver {

/// One drive channel: f_p(t) * factor * O on `mode` (a pulse's own mode has factor 1; each
/// crosstalk entry adds a channel with its factor on the other mode).
struct DriveChannel {
  int pulse = 0;
  int mode = 0;
  double factor = 1.0;
  std::string op;  ///< operator name on `mode` ("phi", "n", "x", "y")
};

struct Options {
  Solver solver = Solver::trotter;
  int order = 2;
  Splitting splitting = Splitting::terms;
  int steps = 1000;
  double duration = 0.0;  ///< total time T (ns), resolved
  double rtol = 1e-10, atol = 1e-12;
  Basis basis = Basis::product;
  Frame frame = Frame::lab;
  InitialStates initial_states;
  Precision precision = Precision::double_;
  int threads = 0;  ///< 0: all cores
};

/// Called from the evolving thread with the fraction of work done, in [0, 1].
using Progress = std::function<void(double)>;

struct EvolveResult {
  /// Evolved columns, D x n_initial, in the configured basis and frame.
  CMatrix columns;
  /// precision: single only: max |difference| between the first column block evolved in
  /// single and in double precision; NaN otherwise.
  double single_precision_deviation = 0.0;
};

/// Counters proving what is cached (tests assert on them; they are not timings).
struct CacheStats {
  long static_factor_builds = 0;        ///< times the dt-dependent static factors were built
  long drive_eigendecompositions = 0;   ///< eigensystems of drive operators computed
  long dense_h0_builds = 0;             ///< dense H0 / drive operators built (expm, adaptive)
  long evaluations = 0;                 ///< evolve() calls
};

class Simulator {
 public:
  /// Builds the simulator: resolves pulses (auto amplitude/frequency), time grid, drive
  /// channels, the dressed basis if the options need it, and every static factor.
  /// `threads` <= 0 means all cores. Throws InputError for inconsistent input.
  Simulator(const Config& config, device::Device device, int threads = 0);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  [[nodiscard]] const device::Device& device() const { return device_; }
  [[nodiscard]] const Options& options() const { return options_; }
  [[nodiscard]] const std::vector<DriveChannel>& channels() const { return channels_; }
  /// The dressed basis, present when basis: dressed, frame: rotating with dressed basis, or a
  /// pulse uses frequency: auto_dressed.
  [[nodiscard]] const std::optional<device::DressedBasis>& dressed() const { return dressed_; }

  /// Pulse parameters may be changed between evaluations (the static cache stays valid).
  [[nodiscard]] std::vector<pulse::Pulse>& pulses() { return pulses_; }
  [[nodiscard]] const std::vector<pulse::Pulse>& pulses() const { return pulses_; }

  /// Changes the number of steps; rebuilds only the dt-dependent static factors.
  void set_steps(int steps);
  [[nodiscard]] double dt() const { return options_.duration / options_.steps; }

  /// Basis-state indices of the initial states (flat indices; in the dressed basis these label
  /// dressed states) and their labels ("0110").
  [[nodiscard]] const std::vector<Index>& initial_indices() const { return initial_; }
  [[nodiscard]] std::vector<std::string> initial_labels() const;
  /// True when the initial states are exactly the computational subspace, in order.
  [[nodiscard]] bool initial_states_are_computational() const;

  /// Evolves every initial state through all steps.
  [[nodiscard]] EvolveResult evolve(const Progress& progress = {}) const;

  /// Lower level: evolves arbitrary product-basis columns psi0 (D x n) in the lab frame with
  /// the configured solver and returns the product-basis lab-frame result (no basis change,
  /// no frame). Used by evolve() and by tests.
  [[nodiscard]] CMatrix evolve_product(const CMatrix& psi0, const Progress& progress = {}) const;

  /// The full time-dependent Hamiltonian at time t as a dense D x D matrix (tests and the
  /// dense reference path; small D only).
  [[nodiscard]] CMatrix dense_hamiltonian(double t) const;
  /// Drive coefficients c_j(t) = f_p(t) * factor of every channel.
  void drive_coefficients(double t, std::vector<double>& out) const;

  [[nodiscard]] CacheStats stats() const;

  /// Trotter path only: number of fused local gates per step, and the floating-point work of
  /// one step on one column (8 flops per complex multiply-add, D g per gate of size g).
  [[nodiscard]] int gates_per_step() const;
  [[nodiscard]] double flops_per_column_step() const;

 private:
  struct Cache;
  device::Device device_;
  Options options_;
  std::vector<pulse::Pulse> pulses_;
  std::vector<DriveChannel> channels_;
  std::optional<device::DressedBasis> dressed_;
  std::vector<Index> initial_;
  std::unique_ptr<Cache> cache_;
};

/// Number of threads used for `threads` <= 0 (all cores) or the value itself.
[[nodiscard]] int resolve_threads(int threads);

}  // namespace qevolve::solver
