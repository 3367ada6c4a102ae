// io's store of the optimiser's checkpoint (include/qevolve/optimize_record.hpp: the layout).
#include "qevolve/optimize_record.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "qevolve/error.hpp"
#include "qevolve/hdf5_file.hpp"
#include "qevolve/names.hpp"
#include "messages.hpp"

namespace qevolve::io {
namespace {

using optimize::EvaluationRecord;
using optimize::IterationRecord;
using optimize::Record;
using optimize::Settings;

constexpr double kFormatVersion = 1.0;
constexpr const char* kKind = "qevolve optimize checkpoint";

/// A [1, 1] matrix: the checkpoint's scalars are read back with io::read_complex_matrix.
RMatrix scalar(double v) {
  return RMatrix::Constant(1, 1, v);
}

RMatrix column(const std::vector<double>& v) {
  RMatrix out(static_cast<Index>(v.size()), 1);
  for (std::size_t k = 0; k < v.size(); ++k) out(static_cast<Index>(k), 0) = v[k];
  return out;
}

/// One row per evaluation; shorter rows are padded with zeros to `cols`.
RMatrix rows_of(const std::vector<EvaluationRecord>& evals, RVector EvaluationRecord::*field,
                Index cols) {
  RMatrix out = RMatrix::Zero(static_cast<Index>(evals.size()), cols);
  for (std::size_t k = 0; k < evals.size(); ++k) {
    const RVector& v = evals[k].*field;
    out.row(static_cast<Index>(k)).head(v.size()) = v.transpose();
  }
  return out;
}

constexpr const char* kNotUsable = "not a usable qevolve optimize checkpoint: ";

[[noreturn]] void corrupt(const std::string& path, const std::string& what) {
  throw InputError(SourceLocation{path, 0, 0}, {}, kNotUsable + what);
}

/// A real [rows, cols] dataset of the expected shape (a negative size: any).
RMatrix read_real(const std::string& path, const std::string& dataset, Index rows, Index cols) {
  const CMatrix m = io::read_complex_matrix(path, dataset);
  if ((rows >= 0 && m.rows() != rows) || (cols >= 0 && m.cols() != cols))
    corrupt(path, dataset + " has shape [" + std::to_string(m.rows()) + ", " +
                      std::to_string(m.cols()) + "]");
  if (m.size() > 0 && m.imag().cwiseAbs().maxCoeff() > 0.0) corrupt(path, dataset + " is not real");
  return m.real();
}

double read_scalar(const std::string& path, const std::string& dataset) {
  return read_real(path, dataset, 1, 1)(0, 0);
}

/// A non-negative integer stored as a double.
Index read_count(const std::string& path, double v, const std::string& what) {
  if (!(v >= 0.0) || v > 1e12 || v != std::floor(v)) corrupt(path, "bad " + what);
  return static_cast<Index>(v);
}

Record read_unchecked(const std::string& path) {
  Record r;
  const RMatrix counts = read_real(path, "/counts", 1, 3);
  if (counts(0, 0) != kFormatVersion)
    corrupt(path, "format version " + std::to_string(counts(0, 0)) + " (this qevolve reads 1)");
  const Index m = read_count(path, counts(0, 1), "number of evaluations");
  const Index k = read_count(path, counts(0, 2), "number of iterations");
  r.x0 = read_real(path, "/x0", -1, 1).col(0);
  const Index n = r.x0.size();
  if (!r.x0.allFinite()) corrupt(path, "/x0 is not finite");
  Settings& s = r.settings;
  s.method =
      read_scalar(path, "/settings/method") == 1.0 ? OptimizerMethod::adam : OptimizerMethod::lbfgs;
  s.learning_rate = read_scalar(path, "/settings/learning_rate");
  s.max_iterations = static_cast<int>(read_scalar(path, "/settings/max_iterations"));
  s.target_infidelity = read_scalar(path, "/settings/target_infidelity");
  s.stall_window = static_cast<int>(read_scalar(path, "/settings/stall_window"));
  s.stall_tolerance = read_scalar(path, "/settings/stall_tolerance");
  s.gradient_tolerance = read_scalar(path, "/settings/gradient_tolerance");

  if (m > 0) {
    const RMatrix f = read_real(path, "/evaluations/f", m, 1);
    const RMatrix x = read_real(path, "/evaluations/x", m, n);
    const RMatrix g = read_real(path, "/evaluations/gradient", m, n);
    if (!f.allFinite() || !x.allFinite() || !g.allFinite())
      corrupt(path, "an evaluation record is not finite");
    const RMatrix len = read_real(path, "/evaluations/aux_length", m, 1);
    const Index max_len = len.size() > 0 ? read_count(path, len.maxCoeff(), "aux length") : 0;
    const RMatrix aux = max_len > 0 ? read_real(path, "/evaluations/aux", m, -1) : RMatrix(m, 0);
    if (aux.cols() < max_len) corrupt(path, "/evaluations/aux is narrower than its lengths");
    for (Index e = 0; e < m; ++e) {
      EvaluationRecord rec;
      rec.x = x.row(e).transpose();
      rec.f = f(e, 0);
      rec.gradient = g.row(e).transpose();
      rec.aux = aux.row(e).head(read_count(path, len(e, 0), "aux length")).transpose();
      r.evaluations.push_back(std::move(rec));
    }
  }
  if (k > 0) {
    const RMatrix it = read_real(path, "/history/iteration", k, 1);
    const RMatrix inf = read_real(path, "/history/infidelity", k, 1);
    const RMatrix gn = read_real(path, "/history/gradient_norm", k, 1);
    const RMatrix step = read_real(path, "/history/step", k, 1);
    const RMatrix wall = read_real(path, "/history/wall_time_s", k, 1);
    for (Index i = 0; i < k; ++i) {
      IterationRecord rec;
      rec.iteration = static_cast<int>(read_count(path, it(i, 0), "iteration number"));
      rec.objective = inf(i, 0);
      rec.gradient_norm = gn(i, 0);
      rec.step = step(i, 0);
      rec.wall_time_s = wall(i, 0);
      r.history.push_back(rec);
    }
  }
  return r;
}

}  // namespace

void write_optimize_record(const std::string& path, const Record& record) {
  const Index n = record.x0.size();
  Index aux_cols = 0;
  std::vector<double> f, aux_len;
  for (const auto& e : record.evaluations) {
    if (e.x.size() != n || e.gradient.size() != n)
      throw Error("optimize: an evaluation record does not have " + std::to_string(n) +
                  " parameters");
    aux_cols = std::max(aux_cols, e.aux.size());
    f.push_back(e.f);
    aux_len.push_back(static_cast<double>(e.aux.size()));
  }
  const Settings& s = record.settings;
  const bool adam = s.method == OptimizerMethod::adam;

  io::Hdf5Writer w(path);
  RMatrix counts(1, 3);
  counts << kFormatVersion, static_cast<double>(record.evaluations.size()),
      static_cast<double>(record.history.size());
  w.write("/counts", counts);
  w.write("/x0", RMatrix(record.x0));
  if (!record.names.empty()) w.write("/names", record.names);
  w.write("/settings/method", scalar(adam ? 1.0 : 0.0));
  w.write("/settings/learning_rate", scalar(s.learning_rate));
  w.write("/settings/max_iterations", scalar(s.max_iterations));
  w.write("/settings/target_infidelity", scalar(s.target_infidelity));
  w.write("/settings/stall_window", scalar(s.stall_window));
  w.write("/settings/stall_tolerance", scalar(s.stall_tolerance));
  w.write("/settings/gradient_tolerance", scalar(s.gradient_tolerance));
  if (!record.evaluations.empty()) {
    w.write("/evaluations/x", rows_of(record.evaluations, &EvaluationRecord::x, n));
    w.write("/evaluations/f", column(f));
    w.write("/evaluations/gradient", rows_of(record.evaluations, &EvaluationRecord::gradient, n));
    w.write("/evaluations/aux_length", column(aux_len));
    if (aux_cols > 0)
      w.write("/evaluations/aux", rows_of(record.evaluations, &EvaluationRecord::aux, aux_cols));
  }
  if (!record.history.empty()) {
    std::vector<double> it, inf, gn, step, wall;
    for (const auto& h : record.history) {
      it.push_back(h.iteration);
      inf.push_back(h.objective);
      gn.push_back(h.gradient_norm);
      step.push_back(h.step);
      wall.push_back(h.wall_time_s);
    }
    w.write("/history/iteration", column(it));
    w.write("/history/infidelity", column(inf));
    w.write("/history/gradient_norm", column(gn));
    w.write("/history/step", column(step));
    w.write("/history/wall_time_s", column(wall));
  }
  w.attribute("kind", std::string(kKind));
  w.attribute("method", std::string(enum_name(s.method)));
  w.attribute("objective", s.objective_name);  // what /history/infidelity and f hold, in words
  if (!record.stop_reason.empty()) w.attribute("stop_reason", record.stop_reason);
  w.commit();
}

Record read_optimize_record(const std::string& path) {
  try {
    return read_unchecked(path);
  } catch (const InputError& e) {
    // io's reader names the file and the dataset; say what kind of file was expected too.
    if (e.problem().rfind(kNotUsable, 0) == 0) throw;
    const std::string what = e.key_path().empty() ? e.problem() : e.key_path() + ": " + e.problem();
    throw InputError(SourceLocation{path, 0, 0}, {}, kNotUsable + what);
  }
}

namespace {

InputError checkpoint_mismatch(const std::string& path, const std::string& why) {
  return input_error(SourceLocation{path, 0, 0}, {}, Msg::CheckpointMismatch, {{"WHY", why}});
}

}  // namespace

void check_resume(const std::string& path, const RVector& x0, const optimize::Settings& settings) {
  const Record r = read_optimize_record(path);
  if (r.x0.size() != x0.size())
    throw checkpoint_mismatch(path, message(Msg::ContextResumeCount, {{"RECORDED", std::to_string(r.x0.size())},
                                                                      {"NOW", std::to_string(x0.size())}}));
  if (!optimize::same_point(x0, r.x0)) throw checkpoint_mismatch(path, message(Msg::ContextResumeStart));
  if (r.settings.method != settings.method)
    throw checkpoint_mismatch(path, message(Msg::ContextResumeMethod, {{"RECORDED", enum_name(r.settings.method)},
                                                                       {"NOW", enum_name(settings.method)}}));
  if (settings.method == OptimizerMethod::adam && r.settings.learning_rate != settings.learning_rate)
    throw checkpoint_mismatch(path, message(Msg::ContextResumeRate));
}

InputError resume_mismatch(const std::string& path, const optimize::ReplayMismatch& e) {
  using Kind = optimize::ReplayMismatch::Kind;
  switch (e.kind) {
    case Kind::point:
      return checkpoint_mismatch(path, message(Msg::ContextReplayPoint, {{"K", std::to_string(e.evaluation)}}));
    case Kind::gradient_length: return checkpoint_mismatch(path, message(Msg::ContextReplayGradient));
    case Kind::start_objective: break;
  }
  return checkpoint_mismatch(path, message(Msg::ContextReplayObjective, {{"NOW", std::to_string(e.now)},
                                                                         {"RECORDED", std::to_string(e.recorded)}}));
}

namespace {

class Hdf5RecordStore final : public optimize::RecordStore {
 public:
  void write(const std::string& path, const Record& record) const override {
    write_optimize_record(path, record);
  }
  [[nodiscard]] Record read(const std::string& path) const override { return read_optimize_record(path); }
};

}  // namespace

const optimize::RecordStore& optimize_checkpoint_store() {
  static const Hdf5RecordStore store;
  return store;
}

}  // namespace qevolve::io
