// The evaluation record behind checkpoint and resume: every objective evaluation (x, f,
// gradient, aux) in order, plus the start point. Written atomically to HDF5 after every
// evaluation; a resumed run replays it so the optimiser's internal state is rebuilt exactly.
#pragma once

#include <string>
#include <vector>

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
  std::vector<EvaluationRecord> evaluations;
};

/// Writes the record to `path` (temp file + rename). Throws InputError if it cannot be written.
void write_record(const std::string& path, const Record& record);
/// Reads a record written by write_record. InputError naming the file if it is missing,
/// not HDF5 or not a qevolve checkpoint.
[[nodiscard]] Record read_record(const std::string& path);

}  // namespace qevolve::optimize
