// The optimiser's checkpoint as an HDF5 file (src/io/optimize_record.cpp): optimize::minimize
// keeps its optimize::Record through the RecordStore it is handed (settings.store), and this is
// io's, which the commands pass. Written atomically (io::Hdf5Writer: temporary file + rename)
// after every evaluation and every iteration.
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

#include "qevolve/optimizer.hpp"

namespace qevolve::io {

/// Writes the record to `path` (temp file + rename). InputError if it cannot be written.
void write_optimize_record(const std::string& path, const optimize::Record& record);

/// Reads a record written by write_optimize_record. Every problem (missing file, not HDF5,
/// truncated, another kind of file, inconsistent sizes) is an InputError naming the file.
[[nodiscard]] optimize::Record read_optimize_record(const std::string& path);

/// A checkpoint to resume from (`--resume`) that is of another run: another number of
/// parameters, another start point `x0` (optimize::same_point), another method or (adam)
/// learning rate than `settings` -- an InputError naming `path`, checked before minimize runs
/// (its read's InputErrors as read_optimize_record's).
void check_resume(const std::string& path, const RVector& x0, const optimize::Settings& settings);

/// The InputError naming `path` of a replay that left the resumed checkpoint (what only
/// minimize can find: optimize::ReplayMismatch).
[[nodiscard]] InputError resume_mismatch(const std::string& path, const optimize::ReplayMismatch& e);

/// The store of those two functions, for optimize::Settings::store (one for the program's
/// lifetime; stateless).
[[nodiscard]] const optimize::RecordStore& optimize_checkpoint_store();

}  // namespace qevolve::io
