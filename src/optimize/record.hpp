// The record behind checkpoint and resume: the start point, the settings, every objective
// evaluation (x, f, gradient, aux) in order and the iteration history. Written atomically to
// HDF5 (io::Hdf5Writer: temporary file + rename) after every evaluation and every iteration; a
// resumed run replays the evaluations so the optimiser's internal state is rebuilt exactly.
//
// File layout (every dataset float64 [rows, cols]; vectors are [n, 1] columns):
//   /counts                  [1, 3]: format version, number of evaluations, of iterations
//   /x0                      [n, 1]
//   /names                   the parameter names (strings; for people, not read back)
//   /settings/<key>          [1, 1]: method (0 lbfgs, 1 adam), learning_rate, max_iterations,
//                            target_infidelity, stall_window, stall_tolerance, gradient_tolerance
//   /evaluations/x           [m, n]
//   /evaluations/f           [m, 1]
//   /evaluations/gradient    [m, n]
//   /evaluations/aux         [m, a], rows padded with zeros to the longest aux
//   /evaluations/aux_length  [m, 1]
//   /history/<field>         [k, 1]: iteration, infidelity, gradient_norm, step, wall_time_s
//   attributes on /: kind = "qevolve optimize checkpoint", method, stop_reason (once finished)
#pragma once

#include <string>
#include <vector>

#include "qevolve/optimizer.hpp"
#include "qevolve/types.hpp"

namespace qevolve::optimize {

struct EvaluationRecord {
  RVector x;
  double f = 0.0;
  RVector gradient;
  RVector aux;
};

struct Record {
  RVector x0;
  std::vector<std::string> names;  ///< written only
  Settings settings;               ///< the numeric settings (checkpoint/resume paths not stored)
  std::vector<EvaluationRecord> evaluations;
  std::vector<IterationRecord> history;
  std::string stop_reason;  ///< empty while running
};

/// Writes the record to `path` (temp file + rename). InputError if it cannot be written.
void write_record(const std::string& path, const Record& record);

/// Reads a record written by write_record. Every problem (missing file, not HDF5, truncated,
/// another kind of file, inconsistent sizes) is an InputError naming the file.
[[nodiscard]] Record read_record(const std::string& path);

}  // namespace qevolve::optimize
